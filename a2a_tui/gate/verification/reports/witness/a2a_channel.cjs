// The run's channel for a2a's reporters in node runners (jest, vitest; reports/channel.py):
// `open(runner)` takes the channel's path and token out of the environment (the processes the
// tests start do not inherit them) and returns a function appending one record with both.
'use strict';
const { appendFileSync } = require('node:fs');
const { randomUUID } = require('node:crypto');

exports.open = (runner) => {
  const channel = process.env.A2A_REPORT_CHANNEL;
  const token = process.env.A2A_REPORT_TOKEN;
  delete process.env.A2A_REPORT_CHANNEL;
  delete process.env.A2A_REPORT_TOKEN;
  const id = randomUUID();
  return (rec) => {
    if (channel && token) {
      appendFileSync(channel, JSON.stringify({ token, runner, id, pid: process.pid, ...rec })
        + '\n', { mode: 0o600 });
    }
  };
};
