// Mocha reporter: the spec reporter's output, plus the suite's pass/fail counts appended as one
// line `<passes> <failures>` to the file named by $TEST_COUNTS_FILE (read by hack/test.sh).
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class CountsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.TEST_COUNTS_FILE;
      if (file) fs.appendFileSync(file, `${runner.stats.passes} ${runner.stats.failures}\n`);
    });
  }
}

module.exports = CountsReporter;
