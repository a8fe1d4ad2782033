/**
 * The `via` of an interface call that reaches the interface's method and nothing further, because
 * no type of the index implements the interface: written by the link, read by the default view
 * (such a method ends the story at the call's own text).
 */
export const NO_IMPLEMENTATION = 'no implementation indexed';
