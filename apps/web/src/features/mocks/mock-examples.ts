/**
 * The 'Examples' help of spec 002 §2: for dynamic handlers (conditional headers, a body chosen by
 * a query value), for static bodies (the default list of todo items and a single object), and the
 * mapRemote examples of the general explanation. Handlers follow the starter script's contract:
 * `handler(request)` gets `{ url, method, headers, body, query }` and returns `{ status, headers, body }`.
 */
import { SAMPLE_TODOS } from '@spyglass/protocol';

export interface MockExample { title: string; description: string; text: string }

export const STATIC_EXAMPLES: MockExample[] = [
  {
    title: 'A list of todo items',
    description: 'The default body: todo items with id, name, status (open or done) and createdAt.',
    text: JSON.stringify(SAMPLE_TODOS, null, 2),
  },
  {
    title: 'A single object',
    description: 'One todo item, as a detail endpoint answers it.',
    text: JSON.stringify(SAMPLE_TODOS[0], null, 2),
  },
];

export const DYNAMIC_EXAMPLES: MockExample[] = [
  {
    title: 'Conditional headers',
    description: 'Answer 401 without an Authorization header, and tag the answer with a header of its own.',
    text: `function handler(request) {
  const token = request.headers['authorization'] || request.headers['Authorization'];
  if (!token) {
    return { status: 401, headers: { 'WWW-Authenticate': 'Bearer' }, body: { error: 'Sign in first' } };
  }
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-Mocked-User': token.slice(-6) },
    body: { ok: true },
  };
}
`,
  },
  {
    title: 'Body chosen by a query value',
    description: 'Page through the todo items with ?offset=N (two per page).',
    text: `const todos = ${JSON.stringify(SAMPLE_TODOS.map(({ id, name, status }) => ({ id, name, status })), null, 2)};

function handler(request) {
  const offset = Number(request.query.offset || 0);
  console.log('offset', offset);
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: { offset, items: todos.slice(offset, offset + 2), total: todos.length },
  };
}
`,
  },
];

export const MAP_REMOTE_EXAMPLES: MockExample[] = [
  {
    title: 'Production to localhost',
    description: 'Mocked URL https://api.example.com/* with target http://localhost:3000: the path and query are kept.',
    text: 'https://api.example.com/v1/todos?page=2  →  http://localhost:3000/v1/todos?page=2',
  },
  {
    title: 'Another API version',
    description: 'Mocked URL https://api.example.com/v1/* with target https://api.example.com/v2/: what * matched is appended to the target.',
    text: 'https://api.example.com/v1/todos/7  →  https://api.example.com/v2/todos/7',
  },
];
