/** The batch/v1 kinds served (Job, CronJob) and the Job selector generation their strategy needs. */
export { cronJob } from './cron-job.js';
export { job } from './job.js';
export { generateJobSelector } from './job-selector.js';
