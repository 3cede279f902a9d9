// Text matched literally inside a RegExp the tests build (screen rows with names, paths, globs).

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
