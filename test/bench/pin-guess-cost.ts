/**
 * `npx tsx test/bench/pin-guess-cost.ts`: what one offline guess of the PIN costs (issue #21.4).
 *
 * A copy of the profile holds the PIN-wrapped data key and its salt, and AES-GCM's tag confirms a
 * right guess, so an attacker's cost per guess is one derivation of the wrapping key: the same code
 * Unlock runs (src/data/vault/keys.ts `derivePinSecret`), timed here in Node (V8, the WebAssembly
 * engine Chromium uses) on this machine's CPU, for the current Argon2id parameters and for the
 * PBKDF2-SHA-256 600,000 of vaults made before issue #21. BENCH_PIN_RUNS sets the runs (default 5);
 * BENCH_ARGON2_ITERATIONS="8,12,14,16" also times other pass counts at 64 MiB.
 *
 * The GPU lines are estimates, not measurements: PBKDF2 from hashcat's published PBKDF2-HMAC-SHA256
 * rate on one RTX 4090 scaled to 600,000 iterations (the figure the issue quotes); Argon2id from
 * memory traffic, its bound on any hardware: each pass reads two 1 KiB blocks and writes one per
 * block of the 64 MiB, at the 4090's ~1 TB/s.
 */
import { ARGON2_PARAMS, PBKDF2_ITERATIONS, derivePinSecret, type PinKdfParams } from '../../src/data/vault/keys';

const RUNS = Number(process.env.BENCH_PIN_RUNS ?? 5);
const PBKDF2_GPU_PER_S = 14_700; // issue #21: hashcat PBKDF2-SHA256 on one RTX 4090, scaled to 600,000 iterations
const GPU_BYTES_PER_S = 1.0e12; // RTX 4090 memory bandwidth, ~1 TB/s

async function msPerGuess(params: PinKdfParams): Promise<{ median: number; min: number }> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  await derivePinSecret('00000000', salt, params); // warm-up (wasm compile, JIT)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await derivePinSecret(String(10_000_000 + i), salt, params);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

function duration(seconds: number): string {
  if (seconds < 1) return `${(seconds * 1000).toFixed(0)} ms`;
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(0)} min`;
  if (seconds < 2 * 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  if (seconds < 2 * 365 * 86_400) return `${(seconds / 86_400).toFixed(1)} days`;
  return `${(seconds / (365 * 86_400)).toFixed(1)} years`;
}

function argon2GpuPerS(params: { memory_kib: number; iterations: number }): number {
  const bytesPerGuess = params.memory_kib * 1024 * 3 * params.iterations;
  return GPU_BYTES_PER_S / bytesPerGuess;
}

async function main() {
  const lines: string[][] = [['derivation', 'ms/guess (median)', 'min', '6-digit PIN, 1 core', '8-digit PIN, 1 core', 'GPU estimate: 6 / 8 digits']];
  const row = (label: string, t: { median: number; min: number }, gpuPerS: number) => {
    const s = t.median / 1000;
    lines.push([
      label,
      t.median.toFixed(0),
      t.min.toFixed(0),
      duration(s * 1e6),
      duration(s * 1e8),
      `${duration(1e6 / gpuPerS)} / ${duration(1e8 / gpuPerS)} (~${gpuPerS.toFixed(0)}/s)`,
    ]);
  };
  const argon = ARGON2_PARAMS;
  row(`Argon2id ${argon.memory_kib / 1024} MiB, t=${argon.iterations}, p=${argon.parallelism} (current)`, await msPerGuess(argon), argon2GpuPerS(argon));
  for (const t of (process.env.BENCH_ARGON2_ITERATIONS ?? '').split(',').filter(Boolean).map(Number)) {
    if (t === argon.iterations) continue;
    const params = { ...argon, iterations: t };
    row(`Argon2id ${argon.memory_kib / 1024} MiB, t=${t}, p=${argon.parallelism}`, await msPerGuess(params), argon2GpuPerS(params));
  }
  row(`PBKDF2-SHA-256 ${PBKDF2_ITERATIONS.toLocaleString('en-US')} (before #21)`, await msPerGuess({ kdf: 'pbkdf2', iterations: PBKDF2_ITERATIONS }), PBKDF2_GPU_PER_S);

  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const l of lines) console.log(l.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  console.log(`\n${RUNS} runs each after a warm-up; Node ${process.version}. Times are for the whole PIN space (a guess finds the PIN after half of it on average).`);
  console.log('GPU figures are estimates (see the file comment); the PRF factor, when set, makes the copy unguessable without the authenticator.');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
