/** Bump when resolution changes what it produces, so unchanged trees are re-linked. */
export const LINK_VERSION = 102;
