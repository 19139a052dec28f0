// The suites `pnpm bench` runs, in this order. A suite is one file in this folder exporting
// { id, title, description, run(ctx) }; register it here. See bench/README.md.
import client from './client.mjs';
import contractTest from './contract-test.mjs';
import dredd from './dredd-planted.mjs';
import generation from './generation.mjs';
import github from './github.mjs';
import hubFaults from './hub-faults.mjs';
import mocks from './mocks.mjs';
import patterns from './patterns.mjs';
import scaffold from './scaffold.mjs';
import server from './server.mjs';
import streams from './streams.mjs';
import typecheck from './typecheck.mjs';
import validators from './validators.mjs';
import writers from './writers.mjs';
import zodVariants from './zod-variants.mjs';

export const suites = [generation, scaffold, validators, patterns, writers, zodVariants, typecheck, server, client, streams, github, mocks, contractTest, dredd, hubFaults];
