import { useLiveQuery } from 'dexie-react-hooks';
import { useDataContext } from '../provider';
import type { Program } from '../../../shared/entities';
import { getByIdOrAlias } from './by-id';
import { keyByAlias, type Keyed } from './stable-keys';

/** Programs by name (case-insensitive), so the list and the AddCohort select read alike. */
export function byProgramName(a: Program, b: Program): number {
  return (a.program_name ?? '').localeCompare(b.program_name ?? '', undefined, { sensitivity: 'base' });
}

export function usePrograms(): Program[] | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => (await db.programs.toArray()).sort(byProgramName), [db]);
}

/** As usePrograms, each with a key that stays the same when the server assigns its id (S2). */
export function useKeyedPrograms(): Keyed<Program>[] | undefined {
  const ctx = useDataContext();
  return useLiveQuery(async () => keyByAlias(ctx, 'Program', (await ctx.db.programs.toArray()).sort(byProgramName)), [ctx]);
}

/** `null` when the id (or its temporary-id alias) matches no program. */
export function useProgram(id: string): Program | null | undefined {
  const ctx = useDataContext();
  return useLiveQuery(() => getByIdOrAlias(ctx, ctx.db.programs, id), [ctx, id]);
}

/** Programs by id, for labelling cohort cards without one read per card. */
export function useProgramsById(): Map<string, Program> | undefined {
  const { db } = useDataContext();
  return useLiveQuery(async () => new Map((await db.programs.toArray()).map((p) => [p.id, p])), [db]);
}
