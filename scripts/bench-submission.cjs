/* eslint-disable @typescript-eslint/no-require-imports -- autocannon require()s this file in its worker thread */
/* global require, module -- a CommonJS module */
/**
 * autocannon's setupRequest for the submission run of `npm run bench` (scripts/bench.ts): each
 * request is the next student's reply — their session token and a fresh submission key — so no
 * student submits twice. The tokens and the answers come from the JSON file named by
 * QE_BENCH_SUBMISSIONS ({tokens, answers}), written by bench.ts before the run. Should the
 * students run out, the tokens start over and the server refuses the repeats (709, counted as non2xx).
 */
const { readFileSync } = require('node:fs');
const { randomUUID } = require('node:crypto');
const { env } = require('node:process');

const { tokens, answers } = JSON.parse(readFileSync(env.QE_BENCH_SUBMISSIONS, 'utf8'));
let next = 0;

module.exports = function setupRequest(request) {
  const token = tokens[next++ % tokens.length];
  return {
    ...request,
    headers: { ...request.headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ submissionKey: randomUUID(), answers }),
  };
};
