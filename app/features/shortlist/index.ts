// The shortlist feature as other features use it (eslint.config.js: a feature imports another
// feature only through its index).
export { ShortlistButton } from "./shortlist-button";
