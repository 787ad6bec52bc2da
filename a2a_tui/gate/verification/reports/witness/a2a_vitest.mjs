// a2a's vitest reporter, named on a check beside the others: --reporter="$A2A_VITEST_REPORTER"
// (reports/channel.py). It writes the run's start record when vitest loads it (before any test
// file runs) and, when the run finishes, the end-of-run record with vitest's own counts, its
// `test.todo` placeholders and the passing tests that ran no `expect` (counted by a2a's setup
// file, a2a_vitest_setup.mjs, which it adds to every project). A run that ends before its end
// leaves a start without an end: the gate refuses it (report_incomplete).
import channel from './a2a_channel.cjs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SETUP = fileURLToPath(new URL('./a2a_vitest_setup.mjs', import.meta.url));
const OUTCOME = { pass: 'passed', fail: 'failed', skip: 'skipped', todo: 'xfail' };

export default class A2AVitestReporter {
  constructor() {
    this.record = channel.open('vitest');
    this.record({ event: 'start' });
  }

  onInit(vitest) {
    // a2a's setup file, in every project: it counts each test's `expect` calls
    for (const config of [vitest.config, ...(vitest.projects ?? []).map((p) => p.config)]) {
      if (config && Array.isArray(config.setupFiles) && !config.setupFiles.includes(SETUP)) {
        config.setupFiles.push(SETUP);
      }
    }
  }

  onFinished(files = []) {
    const counts = {};
    const empty = [];
    const todo = [];
    const walk = (task, file, chain) => {
      if (task.type === 'suite' || task.tasks) {
        const next = task.type === 'suite' && task !== file ? [...chain, task.name] : chain;
        for (const t of task.tasks ?? []) walk(t, file, next);
        return;
      }
      const name = [...chain, task.name].join(' > ');
      const state = task.mode === 'todo' ? 'todo'
        : task.mode === 'skip' ? 'skip' : task.result?.state ?? 'skip';
      const outcome = OUTCOME[state] ?? 'skipped';
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      if (state === 'todo') todo.push(name);
      const asserts = task.meta?.a2aAssertions;
      if (outcome === 'passed' && asserts === 0) {
        empty.push(`${relative(process.cwd(), file.filepath)}::${name}`);
      }
    };
    for (const file of files) walk(file, file, []);
    this.record({ event: 'end', counts, no_assertions: empty, todo });
  }
}
