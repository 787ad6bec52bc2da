// a2a's jest reporter, named on a check beside the others: --reporters="$A2A_JEST_REPORTER"
// (reports/channel.py). It writes the run's start record when jest loads it (before any test
// file runs) and, in onRunComplete, the end-of-run record with jest's own counts and the
// passing tests that ran no assertion (jest's numPassingAsserts). A test file that ends the
// process early leaves a start without an end: the gate refuses the run (report_incomplete).
'use strict';
const { relative } = require('node:path');
const { open } = require('./a2a_channel.cjs');

class A2AJestReporter {
  constructor() {
    this.record = open('jest');
    this.counts = {};
    this.empty = [];
    this.todo = [];
    this.record({ event: 'start' });
  }

  onTestResult(test, result) {
    const file = relative(process.cwd(), result.testFilePath);
    for (const a of result.testResults) {
      const outcome = { passed: 'passed', failed: 'failed', pending: 'skipped',
        skipped: 'skipped', todo: 'xfail', disabled: 'skipped' }[a.status] ?? a.status;
      this.counts[outcome] = (this.counts[outcome] ?? 0) + 1;
      if (a.status === 'todo') this.todo.push([...a.ancestorTitles, a.title].join(' '));
      if (a.status === 'passed' && !a.numPassingAsserts) {
        this.empty.push(`${file}::${[...a.ancestorTitles, a.title].join(' ')}`);
      }
    }
  }

  onRunComplete() {
    this.record({ event: 'end', counts: this.counts, no_assertions: this.empty,
      todo: this.todo });
  }
}

module.exports = A2AJestReporter;
