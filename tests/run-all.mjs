// `npm test`: lint, typecheck and the vitest projects (unit, integration, fault) at once.
//
// The checks take about 20 s one after the other, mostly while vitest starts its stacks and is
// not yet busy, so they run beside it. Their output is held and printed when each ends (with
// vitest's output streaming meanwhile); the command fails if any of the three fails. Arguments go
// to vitest (`npm test -- -t 'pending ticket'`).
import { spawn } from 'node:child_process';

const checks = [
  { name: 'lint', command: 'npm run --silent lint' },
  { name: 'typecheck', command: 'npm run --silent typecheck' },
];

function run(command, args, { hold }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { shell: args.length === 0, stdio: hold ? 'pipe' : 'inherit' });
    let output = '';
    if (hold) {
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const held = checks.map(async ({ name, command }) => {
  const started = Date.now();
  const { code, output } = await run(command, [], { hold: true });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\n[${name}] ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n${code === 0 ? '' : output}`);
  return { name, code, output };
});

const vitest = await run(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'unit',
    '--project',
    'unit-isolated',
    '--project',
    'integration',
    '--project',
    'fault',
    ...process.argv.slice(2),
  ],
  { hold: false },
);
const results = await Promise.all(held);
const failed = results.filter((r) => r.code !== 0);
for (const { name, output } of failed) process.stdout.write(`\n[${name}] FAILED:\n${output}\n`);
if (vitest.code !== 0) failed.push({ name: 'vitest' });
if (failed.length) process.stdout.write(`\nnpm test failed: ${failed.map((f) => f.name).join(', ')}\n`);
process.exit(failed.length ? 1 : 0);
