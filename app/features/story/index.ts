// The story feature as other features use it (eslint.config.js: a feature imports another
// feature only through its index).
export { PageHeader, StorySection } from "./page-header";
