// PM2's view of the service: the API (cluster mode, stateless: rate-limit counters live in the store)
// and the crawler (fork mode, one per host: each host is one egress IP towards the platform).
// Plain CommonJS on purpose: PM2 loads this file with require(), whatever the package's module format.
// Settings come from the environment (see README "Configuration"); PM2 passes it through.

const path = require('node:path');

const positiveInt = (value, fallback) => {
  const n = Number.parseInt(String(value ?? ''), 10);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const logDir = process.env.LOG_DIR || path.join(__dirname, 'logs');
// JSON logs under PM2 unless asked otherwise: PM2 writes them to files, not to a terminal.
const common = {
  cwd: __dirname,
  env: { NODE_ENV: 'production', LOG_FORMAT: process.env.LOG_FORMAT || 'json' },
  autorestart: true,
  // Restart on crash with exponential backoff (100 ms doubling up to 15 s), reset after 30 s of uptime.
  exp_backoff_restart_delay: 100,
  // Exit code 78 is a start-up problem a restart cannot cure (a bad setting, a port in use; see
  // shared/bootstrap.ts): the process stays stopped with its one line in the error log.
  stop_exit_codes: [78],
  merge_logs: true,
  time: false,
};

module.exports = {
  apps: [
    {
      ...common,
      name: 'api',
      script: 'dist/api/main.js',
      exec_mode: 'cluster',
      instances: positiveInt(process.env.API_INSTANCES, 1),
      // SIGINT/SIGTERM close the HTTP server and the store; 10 s is ample for in-flight requests.
      kill_timeout: 10000,
      out_file: path.join(logDir, 'api.out.log'),
      error_file: path.join(logDir, 'api.err.log'),
    },
    {
      ...common,
      name: 'crawler',
      script: 'dist/crawler/main.js',
      exec_mode: 'fork',
      instances: 1,
      // Longer than the crawler's own drain (it lets the in-flight platform request finish, stores
      // what is complete and releases its lease), so PM2 never SIGKILLs a clean shutdown.
      kill_timeout: 45000,
      out_file: path.join(logDir, 'crawler.out.log'),
      error_file: path.join(logDir, 'crawler.err.log'),
    },
  ],
};
