/**
 * Bump when resolution changes what it produces, or what the link writes (40: the trace's record
 * beside the database, src/store/trace-pack.ts), so unchanged trees are re-linked.
 */
export const LINK_VERSION = 40;
