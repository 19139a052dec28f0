// Express 4 is installed under the alias `express4` to run the router tests against both
// major versions; its API is the subset of Express 5's types that these tests use.
declare module 'express4' {
  import express from 'express';
  export default express;
}
