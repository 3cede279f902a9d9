// The terminal modes of a program that asked for nothing (a fresh terminal's): what a legacy
// terminal encodes keys for, and the baseline the surface and input tests vary.
export { DEFAULT_MODES as LEGACY_MODES } from '../../src/surface/types.js';
