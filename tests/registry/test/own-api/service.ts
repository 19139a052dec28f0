// A service of the team's own: the server generated from openapi.yaml, mounted on Express,
// called through the client generated from the same file. Prints what it saw as JSON.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createRouter, type Handlers } from './api/server/index.js';
import { createClient } from './api/client/index.js';
import { ApiError as ClientApiError } from '@bank-data-sharing/client/runtime';
import { ApiError } from '@bank-data-sharing/server-stubs/runtime';

type Book = { id: number; title: string; author: string; tags?: string[]; added: string };
const books: Book[] = [];

const handlers: Handlers = {
  listBooks: ({ query }) => ({
    status: 200,
    body: books.filter((b) => (query.tag ?? []).every((t) => b.tags?.includes(t))).slice(0, query.limit),
  }),
  addBook: ({ body }) => {
    const book: Book = { ...body, id: books.length + 1, added: new Date(Date.UTC(2026, 0, 2)).toISOString() };
    books.push(book);
    return { status: 201, body: book };
  },
  getBook: ({ path }) => {
    const book = books.find((b) => b.id === path.bookId);
    if (!book) throw new ApiError(404, 'NotFound', `No book ${path.bookId}`);
    return { status: 200, body: book };
  },
};

const app = express();
app.use(createRouter(handlers, { onError: () => undefined }));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;
const client = createClient({ origin: `http://127.0.0.1:${port}` });

const added = await client.addBook({ body: { title: 'Middlemarch', author: 'George Eliot', tags: ['novel'] } });
const listed = await client.listBooks({ query: { tag: ['novel'] } });
const missing = await client.getBook({ path: { bookId: 99 } }).catch((error: unknown) => error);
const invalid = await fetch(`http://127.0.0.1:${port}/reading-list/v1/books?limit=0`);
server.close();
console.log(
  JSON.stringify({
    added: added.status,
    titles: listed.body.map((b) => b.title),
    missing: missing instanceof ClientApiError ? missing.status : 'not an ApiError',
    invalid: { status: invalid.status, contentType: invalid.headers.get('content-type'), body: await invalid.json(), interactionId: invalid.headers.get('x-fapi-interaction-id') },
  }),
);
