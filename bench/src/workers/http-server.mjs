// A server for the HTTP suites, in its own process: `node http-server.mjs <setup>`.
// It tells its parent the port (IPC { type: 'listening', port }), answers { type: 'cpu' }
// with its process.cpuUsage(), and exits cleanly on { type: 'stop' }.
//
// Setups:
//   router-validated  generated v2.2 router, requests and responses validated (the default)
//   router-requests   generated v2.2 router, requests validated, responses not (production)
//   router-off        generated v2.2 router, validation off
//   plain             a plain Express route: the same handler body, `res.json` per request
//   eov               express-openapi-validator (requests and responses, security handlers
//                     that accept) on the bundled v2.2 spec, then the plain route
//   bare              a bare Express route sending the bytes the router sends (prepared once)
//   hub               generated v2.2 router + paging adapter over an in-memory LFI of 10,000
//                     transactions (pages of 100), default validation
//   hub-plain         a plain Express route serving the same pages: the LFI's slice, the
//                     same links, `res.json` per request
//   static            a plain node:http server sending 100 prepared pages of 100 transactions
//   raw-node          a plain node:http handler: the same body, JSON.stringify, res.end(text)
//   fastify           a plain Fastify route, the same handler body (Fastify's JSON.stringify)
//   fastify-glue      fastify-openapi-glue on the bundled v2.2 spec (its request validation and
//                     response serialisation, security handlers that accept), the same handler
//   router-node       the generated v2.2 router as the node:http listener itself, default checks
//   router-node-requests  the same, requests validated, responses not
//   router-node-off   the same, validation off
//   router-node-stringify  the same with default checks, the response checked by its check
//                     function and written by JSON.stringify (the router's jsonWriters: false)
//   router-node-text  the same with default checks, answers handed to Node as text (the router's
//                     reuseAnswerBuffers: false)
//   router-fastify    the generated v2.2 router as a Fastify plugin (native routes), default checks
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { createFastifyPlugin, createRouter } from '@bank-data-sharing/server-stubs/v2.2';
import { createPagingAdapter, lfiPage, transactionOrder } from '@bank-data-sharing/server-stubs/runtime';
import { ACCOUNT, bundledSpec, PAGED_PATH, PREFIX, SERVER_PATH, TOKEN, transactions } from '../lib/http-bench.mjs';

const require = createRequire(import.meta.url);
const setup = process.argv[2];

// Each setup loads only the framework it runs on, so that no other one's modules sit in its
// heap (garbage collections walk them) or in its CPU profile.
const NO_EXPRESS = new Set(['raw-node', 'fastify', 'fastify-glue', 'static', 'router-node', 'router-node-requests', 'router-node-off', 'router-node-stringify', 'router-node-text', 'router-fastify']);
const express = NO_EXPRESS.has(setup) ? undefined : (await import('express')).default;
const Fastify = setup.startsWith('fastify') || setup === 'router-fastify' ? (await import('fastify')).default : undefined;
const openapiGlue = setup === 'fastify-glue' ? (await import('fastify-openapi-glue')).default : undefined;
const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const PAGE = transactions(100, Date.UTC(2025, 2, 14, 12));
const ALL = transactions(10_000);
const pageBody = (self) => ({ Data: { AccountId: ACCOUNT, Transaction: PAGE }, Links: { Self: self }, Meta: { TotalPages: 1 } });

/** The plain setups echo the caller's interaction id, or send a new one, as the router does. */
const interactionIdOf = (req) => (typeof req.headers['x-fapi-interaction-id'] === 'string' ? req.headers['x-fapi-interaction-id'] : randomUUID());

function notUsed() {
  throw new Error('not used by the benchmark');
}

/** The whole v2.2 handler set: only the measured operation does anything. */
function handlers(transactionsHandler) {
  return new Proxy({ GetAccountsAccountIdTransactions: transactionsHandler }, { get: (target, name) => target[name] ?? notUsed, has: () => true });
}

function routerOptions({ requests = true, responses = true, jsonWriters, reuseAnswerBuffers } = {}) {
  return {
    ...(jsonWriters === undefined ? {} : { jsonWriters }),
    ...(reuseAnswerBuffers === undefined ? {} : { reuseAnswerBuffers }),
    authorize: ({ credential }) => (credential === TOKEN ? { scopes: ['openid', 'accounts'], permissions: ['ReadTransactionsBasic'] } : undefined),
    // v2.2 accepts signed bodies (consent patch, attestation), so a verification key is required.
    verification: { key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey, algorithms: ['ES256'] },
    validateRequests: requests,
    validateResponses: responses,
  };
}

function router(handler, options) {
  return createRouter(handlers(handler), routerOptions(options));
}

function routerApp(handler, options) {
  const app = express();
  app.use(router(handler, options));
  return app;
}

/** A Fastify application's request listener, for the worker's own server (Fastify never listens). */
async function fastifyListener(register, options = {}) {
  let listener;
  const app = Fastify({
    ...options,
    serverFactory: (handler) => {
      listener = handler;
      return http.createServer();
    },
  });
  await register(app);
  await app.ready();
  return listener;
}

const onePage = (req) => ({ status: 200, body: pageBody(req.url) });

function makeListener() {
  switch (setup) {
    case 'router-validated':
      return routerApp(onePage);
    case 'router-requests':
      return routerApp(onePage, { responses: false });
    case 'router-off':
      return routerApp(onePage, { requests: false, responses: false });
    case 'router-node':
      return router(onePage);
    case 'router-node-text':
      return router(onePage, { reuseAnswerBuffers: false });
    case 'router-node-requests':
      return router(onePage, { responses: false });
    case 'router-node-stringify':
      return router(onePage, { jsonWriters: false });
    case 'router-node-off':
      return router(onePage, { requests: false, responses: false });
    case 'router-fastify':
      return fastifyListener((app) => app.register(createFastifyPlugin(handlers(onePage), routerOptions())));
    case 'raw-node': {
      // The floor: no framework, no contract layer; the body written as text.
      const route = `${PREFIX}/accounts/`;
      return (req, res) => {
        if (!req.url.startsWith(route)) {
          res.statusCode = 404;
          res.end();
          return;
        }
        const text = JSON.stringify(pageBody(`${origin}${req.url}`));
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.setHeader('content-length', Buffer.byteLength(text));
        res.setHeader('x-fapi-interaction-id', interactionIdOf(req));
        res.end(text);
      };
    }
    case 'fastify':
      return fastifyListener((app) => {
        app.get(`${PREFIX}/accounts/:id/transactions`, async (req, reply) => {
          reply.header('x-fapi-interaction-id', interactionIdOf(req.raw));
          return pageBody(`${origin}${req.url}`);
        });
      });
    case 'fastify-glue': {
      const accept = async () => {};
      const serviceHandlers = {
        async GetAccountsAccountIdTransactions(req, reply) {
          reply.header('x-fapi-interaction-id', interactionIdOf(req.raw));
          return pageBody(`${origin}${req.url}`);
        },
      };
      return fastifyListener(
        (app) => {
          // Fastify serialises errors with the route's schema for their status too: its
          // validation errors are put in the spec's error envelope so that the 400 can be sent.
          app.setErrorHandler((err, _req, reply) => {
            reply.code(err.statusCode ?? 500).send({ Errors: [{ Code: 'Resource.InvalidFormat', Message: err.message }] });
          });
          return app.register(openapiGlue, {
            specification: bundledSpec(),
            serviceHandlers,
            securityHandlers: { UserOAuth2Security: accept, TPPOAuth2Security: accept },
            prefix: PREFIX,
          });
        },
        // The spec's `example` and `x-` keywords are not JSON Schema: Ajv's strict mode would
        // refuse the schemas (the plugin's documentation, "AJV strict mode").
        { ajv: { customOptions: { strict: false } } },
      );
    }
    case 'plain': {
      // What an Express application without a contract layer does: build the body, res.json.
      const app = express();
      app.get(`${PREFIX}/accounts/:id/transactions`, (req, res) => {
        res.set('x-fapi-interaction-id', interactionIdOf(req));
        res.json(pageBody(`${origin}${req.originalUrl}`));
      });
      return app;
    }
    case 'eov': {
      const { middleware } = require('express-openapi-validator');
      const app = express();
      const accept = () => true;
      app.use(
        middleware({
          apiSpec: bundledSpec(),
          validateRequests: true,
          validateResponses: true,
          validateSecurity: { handlers: { UserOAuth2Security: accept, TPPOAuth2Security: accept } },
        }),
      );
      app.get(`${PREFIX}/accounts/:AccountId/transactions`, (req, res) => {
        res.set('x-fapi-interaction-id', interactionIdOf(req));
        res.json(pageBody(`${origin}${req.originalUrl}`));
      });
      // Its validation errors, as its documentation shows: status and message as JSON.
      app.use((err, _req, res, _next) => {
        res.status(err.status ?? 500).json({ message: err.message, errors: err.errors });
      });
      return app;
    }
    case 'hub-plain': {
      // The same pages as the hub, without the router and the adapter: the LFI's slice, the
      // links the adapter writes, and res.json per request.
      const app = express();
      const pageSize = 100;
      const totalPages = Math.ceil(ALL.length / pageSize);
      app.get(`${PREFIX}/accounts/:id/transactions`, (req, res) => {
        const page = Number(req.query.page ?? '1');
        const base = `${origin}${PAGED_PATH}?page=`;
        const links = { Self: `${origin}${req.originalUrl}`, First: `${base}1` };
        if (page > 1) links.Prev = `${base}${page - 1}`;
        if (page < totalPages) links.Next = `${base}${page + 1}`;
        links.Last = `${base}${totalPages}`;
        const data = ALL.slice((page - 1) * pageSize, page * pageSize);
        res.set('x-fapi-interaction-id', interactionIdOf(req));
        res.json({ Data: { AccountId: req.params.id, Transaction: data }, Links: links, Meta: { TotalPages: totalPages } });
      });
      return app;
    }
    case 'bare': {
      // The bytes the router sends for the same request (Links.Self is the URL called).
      const bytes = Buffer.from(JSON.stringify(pageBody(`${origin}${SERVER_PATH}`)));
      const app = express();
      app.get(`${PREFIX}/accounts/:id/transactions`, (_req, res) => {
        res.set({ 'content-type': 'application/json; charset=utf-8', 'x-fapi-interaction-id': '0f8fad5b-d9cb-469f-a165-70867728950e' });
        res.end(bytes);
      });
      return app;
    }
    case 'hub': {
      const paging = createPagingAdapter({ pageSize: 100 });
      // The LFI: its records already in the contract's order; a page is a slice.
      const fetchPage = async (q) => lfiPage(ALL, { page: q.page, pageSize: q.pageSize });
      return routerApp(async (req) => ({
        status: 200,
        body: await paging.page({ url: req.url, fetchPage, wrap: (Transaction) => ({ AccountId: req.path.AccountId, Transaction }), order: transactionOrder }),
      }));
    }
    case 'static': {
      const pages = 100;
      const url = (p) => (p === 1 ? `${origin}${PAGED_PATH}` : `${origin}${PAGED_PATH}?page=${p}`);
      const bodies = [];
      for (let p = 1; p <= pages; p++) {
        const links = { Self: url(p), First: url(1), Last: url(pages) };
        if (p > 1) links.Prev = url(p - 1);
        if (p < pages) links.Next = url(p + 1);
        bodies[p] = Buffer.from(JSON.stringify({ Data: { AccountId: ACCOUNT, Transaction: ALL.slice((p - 1) * 100, p * 100) }, Links: links, Meta: { TotalPages: pages } }));
      }
      return (req, res) => {
        const page = Number(new URL(req.url, origin).searchParams.get('page') ?? '1');
        const body = bodies[page];
        const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
        const id = req.headers['x-fapi-interaction-id'];
        if (typeof id === 'string') headers['x-fapi-interaction-id'] = id;
        res.writeHead(200, headers);
        res.end(body);
      };
    }
    default:
      throw new Error(`unknown setup ${setup}`);
  }
}

server.on('request', await makeListener());

// Garbage collections by kind (scavenge, mark-compact, ...), counted from here on, for the
// router profile (src/router-profile.mjs): only when asked, as the observer costs a little.
const gcCounts = {};
if (process.env.BENCH_COUNT_GC === '1') {
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  const kinds = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'markCompact', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakCallbacks' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind] ?? 'other';
      gcCounts[kind] = (gcCounts[kind] ?? 0) + 1;
      gcCounts.ms = (gcCounts.ms ?? 0) + entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
}

process.on('message', (msg) => {
  // CPU time, and beside it getrusage (page faults, context switches) and the GC counts.
  if (msg?.type === 'cpu') process.send({ type: 'cpu', seq: msg.seq, usage: process.cpuUsage(), resources: process.resourceUsage(), gc: { ...gcCounts } });
  if (msg?.type === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'listening', port: server.address().port });
