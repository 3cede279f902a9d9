// The package version, for `a1 --version` and `a1 tabs host status`.
export const VERSION = '0.1.0';
