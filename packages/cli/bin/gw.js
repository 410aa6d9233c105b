#!/usr/bin/env node
// The `gw` command: runs the built CLI, bundled (dist/bundle/gw.js, made by `build` from dist/bin.js) so that a command
// starts in a few files rather than hundreds of modules. A file of its own, present before any build, so that
// installing the workspace links the command without a "Failed to create bin" warning.
//
// It must run on any Node.js that can parse it, so that the bundle's version check can say "gw needs Node.js 22.18"
// and exit 11 on an older one: nothing here names an export a too old Node lacks (a named import of one is a
// SyntaxError before any line runs, as `enableCompileCache` is on Node 20), and no syntax newer than dynamic import.
import * as nodeModule from 'node:module';

// Node keeps V8's compiled code of the bundle between runs (its compile cache, in the OS temp directory; checked
// against the file, so a new build is compiled afresh): each command starts ~25 ms sooner. NODE_DISABLE_COMPILE_CACHE=1
// turns it off. Node before 22.1 has no compile cache; it runs the bundle without one.
if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
// Not awaited (top-level await is newer syntax than this file needs): a failure to load is an unhandled rejection,
// which Node prints and exits 1 on.
import('../dist/bundle/gw.js');
