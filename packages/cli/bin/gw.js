#!/usr/bin/env node
// The `gw` command: runs the built CLI, bundled (dist/bundle/gw.js, made by `build` from dist/bin.js) so that a command
// starts in a few files rather than hundreds of modules. A file of its own, present before any build, so that
// installing the workspace links the command without a "Failed to create bin" warning.
import { enableCompileCache } from 'node:module';

// Node keeps V8's compiled code of the bundle between runs (its compile cache, in the OS temp directory; checked
// against the file, so a new build is compiled afresh): each command starts ~25 ms sooner. NODE_DISABLE_COMPILE_CACHE=1
// turns it off.
enableCompileCache();
await import('../dist/bundle/gw.js');
