// Mocha reporter for `make conformance` (hack/conformance.ts): the dot reporter's output, plus one
// JSON line `{"title", "state"}` per finished test appended to the file named by
// $CONFORMANCE_RESULTS.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

class ConformanceReporter extends Mocha.reporters.Dot {
  constructor(runner, options) {
    super(runner, options);
    const file = process.env.CONFORMANCE_RESULTS;
    const record = (state) => (test) => {
      if (file) fs.appendFileSync(file, `${JSON.stringify({ title: test.fullTitle(), state })}\n`);
    };
    runner.on(EVENT_TEST_PASS, record('passed'));
    runner.on(EVENT_TEST_FAIL, record('failed'));
    runner.on(EVENT_TEST_PENDING, record('pending'));
  }
}

module.exports = ConformanceReporter;
