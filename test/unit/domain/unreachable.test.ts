import { describe, expect, it } from 'vitest';
import { unreachable } from '../../../src/domain/unreachable';

// The one exhaustiveness check (issue #27.4): a value another version sent, which no case knows,
// stops with its name and its content, never silently.
describe('unreachable', () => {
  it('names what it met: a kind as it is, an object whole', () => {
    expect(() => unreachable('archive' as never, 'op kind')).toThrow('Unexpected op kind: archive');
    expect(() => unreachable({ kind: 'wait', ms: 5 } as never, 'push step')).toThrow('Unexpected push step: {"kind":"wait","ms":5}');
  });
});
