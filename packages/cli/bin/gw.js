#!/usr/bin/env node
// The `gw` command: runs the built CLI, bundled (dist/bundle/gw.js, made by `build` from dist/bin.js) so that a command
// starts in a few files rather than hundreds of modules. A file of its own, present before any build, so that
// installing the workspace links the command without a "Failed to create bin" warning.
import '../dist/bundle/gw.js';
