#!/usr/bin/env node
// The `gw-sandbox` command: runs the built sandbox (dist/bin.js). A file of its own, present before any build, so that
// installing the workspace links the command without a "Failed to create bin" warning.
import '../dist/bin.js';
