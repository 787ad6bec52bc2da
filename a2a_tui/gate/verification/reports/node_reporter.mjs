// a2a's reporter for `node --test`, added by the gate through NODE_OPTIONS beside Node's own
// `spec` reporter (reports/auto.py). It writes JUnit XML as Node's `junit` reporter does, plus
// each test's file (relative to the working directory), which Node 20's leaves out: without
// it, two files' tests of one name are one test.
// It also writes the run's start and end-of-run records on a2a's channel (reports/channel.py).
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';

const CHANNEL = process.env.A2A_REPORT_CHANNEL;
const TOKEN = process.env.A2A_REPORT_TOKEN;
delete process.env.A2A_REPORT_CHANNEL;
delete process.env.A2A_REPORT_TOKEN;
const ID = randomUUID();
const record = (rec) => {
  if (CHANNEL && TOKEN) {
    appendFileSync(CHANNEL, JSON.stringify({ token: TOKEN, runner: 'node', id: ID,
      pid: process.pid, ...rec }) + '\n', { mode: 0o600 });
  }
};
record({ event: 'start' });

const XML = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
// Characters XML 1.0 cannot carry are dropped; the others escaped.
// eslint-disable-next-line no-control-regex
const esc = (s) => String(s ?? '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  .replace(/[&<>"]/g, (c) => XML[c]);

function testcase(data, chain, failed) {
  const file = data.file ? relative(process.cwd(), data.file) : '';
  // A file that failed to load is reported as a test named by its path.
  const name = data.file && data.name === data.file ? '(file)' : data.name;
  const seconds = ((data.details?.duration_ms ?? 0) / 1000).toFixed(6);
  const inner = [];
  if (data.todo !== undefined && data.todo !== false) {
    inner.push(`<skipped type="todo" message="${esc(data.todo)}"/>`);
  } else if (data.skip !== undefined && data.skip !== false) {
    inner.push(`<skipped type="skipped" message="${esc(data.skip)}"/>`);
  }
  if (failed) {
    const err = data.details?.error;
    const message = err?.cause?.message ?? err?.message ?? '';
    inner.push(`<failure type="${esc(err?.failureType)}" message="${esc(message)}"/>`);
  }
  return `  <testcase file="${esc(file)}" classname="${esc(chain.join(' > '))}"` +
    ` name="${esc(name)}" time="${seconds}">${inner.join('')}</testcase>`;
}

export default async function* a2aJunit(source) {
  const running = new Map(); // file -> the names of the tests being run, by nesting
  const cases = [];
  const counts = {};
  for await (const { type, data } of source) {
    if (type === 'test:start') {
      const stack = running.get(data.file) ?? [];
      stack.length = data.nesting;
      stack.push(data.name);
      running.set(data.file, stack);
    } else if ((type === 'test:pass' || type === 'test:fail') && data.details?.type !== 'suite') {
      const chain = (running.get(data.file) ?? []).slice(0, data.nesting);
      cases.push(testcase(data, chain, type === 'test:fail'));
      const masked = (data.todo !== undefined && data.todo !== false) ? 'xfail'
        : (data.skip !== undefined && data.skip !== false) ? 'skipped' : null;
      const outcome = masked ?? (type === 'test:fail' ? 'failed' : 'passed');
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
  }
  yield `<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="a2a node --test"` +
    ` tests="${cases.length}">\n${cases.join('\n')}\n</testsuites>\n`;
  record({ event: 'end', counts, no_assertions: [] });
}
