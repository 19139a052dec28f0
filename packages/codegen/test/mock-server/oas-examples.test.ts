/**
 * The mock server of files it was not written for (`@readme/oas-examples`): a 3.0 file whose
 * errors are all `default`, and a 3.1 file with OAuth2, problem details, XML alternatives,
 * response headers and named examples.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { expectDeclared, oasExample, sampled, send } from './support.js';

/** Every operation answered with a declared success, twice with the same bytes. */
async function everyOperation(server: MockServer): Promise<void> {
  for (const { name } of server.operations) {
    const request = sampled(server, name);
    const answer = await send(server, request);
    expect(answer.status, `${name}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
    expect(answer.status, `${name}: ${answer.text.slice(0, 300)}`).toBeLessThan(300);
    expectDeclared(server, name, answer);
    expect((await send(server, request)).text, name).toBe(answer.text);
  }
}

describe('codegen mock on 3.0/json/petstore-expanded.json', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ spec: oasExample('3.0/json/petstore-expanded.json'), port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers every operation as declared', async () => {
    expect(server.operations.map((o) => o.operationId).sort()).toStrictEqual(['addPet', 'deletePet', 'find pet by id', 'findPets']);
    await everyOperation(server);
  });

  it('honours Prefer: code= through default, and refuses an example the file does not name', async () => {
    const notFound = await send(server, sampled(server, server.operations.find((o) => o.operationId === 'find pet by id')!.name, { prefer: 'code=404' }));
    expect(notFound.status).toBe(404);
    expect(notFound.json).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
    const noExample = await send(server, sampled(server, 'findPets', { prefer: 'example=cat' }));
    expect(noExample.status).toBe(400);
    expectDeclared(server, 'findPets', noExample);
    expect(noExample.text).toContain('example=cat');
  });

  it('answers bad requests with the file default error body', async () => {
    const wrongType = await send(server, { method: 'GET', target: '/pets?limit=many', headers: {} });
    expect(wrongType.status).toBe(400);
    expectDeclared(server, 'findPets', wrongType);
    expect(wrongType.text).toContain('limit');
    const add = sampled(server, 'addPet');
    const missing = await send(server, { ...add, body: JSON.stringify({ tag: 'no name' }) });
    expect(missing.status).toBe(400);
    expectDeclared(server, 'addPet', missing);
    expect(missing.text).toContain('name');
  });
});

describe('codegen mock on 3.1/json/train-travel.json', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ spec: oasExample('3.1/json/train-travel.json'), port: 0, seed: 3 });
  });
  afterAll(async () => {
    await server?.close();
  });
  const named = (operationId: string) => server.operations.find((o) => o.operationId === operationId)!.name;

  it('answers every operation as declared', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await everyOperation(server);
  });

  it('honours Prefer: code= and example=', async () => {
    const booking = named('get-booking');
    const notFound = await send(server, sampled(server, booking, { prefer: 'code=404' }));
    expect(notFound.status).toBe(404);
    expectDeclared(server, booking, notFound);
    expect(notFound.contentType).toContain('application/problem+json');

    const payment = named('create-booking-payment');
    const source = (await import(oasExample('3.1/json/train-travel.json'), { with: { type: 'json' } })).default as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }> }>>;
    };
    const bank = await send(server, sampled(server, payment, { prefer: 'example=Bank' }));
    expect(bank.status).toBe(200);
    expectDeclared(server, payment, bank);
    expect(bank.json).toStrictEqual(source.paths['/bookings/{bookingId}/payment']!.post!.responses['200']!.content['application/json']!.examples.Bank!.value);

    // The file's Card example shows the writeOnly `cvc` in a response: the contract refuses it.
    const card = await send(server, sampled(server, payment, { prefer: 'example=Card' }));
    expect(card.status).toBe(400);
    expectDeclared(server, payment, card);
    expect(card.text).toContain('does not validate');

    const unknown = await send(server, sampled(server, payment, { prefer: 'example=Cash' }));
    expect(unknown.status).toBe(400);
    expectDeclared(server, payment, unknown);
    expect(unknown.text).toContain('Card');
  });

  it('negotiates the media type with Accept, refusing what the mock cannot write', async () => {
    const stations = named('get-stations');
    const json = await send(server, sampled(server, stations, { accept: 'application/xml;q=0.9, application/json' }));
    expect(json.status).toBe(200);
    expect(json.contentType).toContain('application/json');
    // The mock makes JSON values: XML, which the file also offers, it cannot write.
    const xml = await send(server, sampled(server, stations, { accept: 'application/xml' }));
    expect(xml.status).toBe(406);
  });

  it('answers bad requests and missing credentials with the file problem details', async () => {
    const trips = named('get-trips');
    const request = sampled(server, trips);
    const target = request.target.replace(/([?&])bicycles=[^&]*/, '$1bicycles=perhaps');
    const wrongType = await send(server, { ...request, target: target.includes('bicycles=') ? target : `${target}&bicycles=perhaps` });
    expect(wrongType.status).toBe(400);
    expectDeclared(server, trips, wrongType);

    const create = named('create-booking');
    const booking = sampled(server, create);
    const wrongMember = await send(server, { ...booking, body: JSON.stringify({ passenger_name: 'No Trip', has_bicycle: 'yes' }) });
    expect(wrongMember.status).toBe(400);
    expectDeclared(server, create, wrongMember);
    expect(wrongMember.text).toContain('has_bicycle');

    const anonymous = await send(server, sampled(server, create, { authorization: undefined }));
    expect(anonymous.status).toBe(401);
    expectDeclared(server, create, anonymous);
  });
});

describe('codegen mock on 3.1/json/parameters-style.json (operations that declare no response)', () => {
  it('answers them 204: a file that promises nothing is kept by an empty success', async () => {
    const server = await startMockServer({ spec: oasExample('3.1/json/parameters-style.json'), port: 0, onError: (error) => expect.fail(String(error)) });
    try {
      const answer = await send(server, { method: 'GET', target: '/cookies' });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
    } finally {
      await server.close();
    }
  });
});
