import { useLiveQuery } from 'dexie-react-hooks';
import { dataContext } from '../context';
import type { Program } from '../../../shared/entities';
import { getByIdOrAlias } from './cohorts';
import { keyByAlias, type Keyed } from './stable-keys';

/** The database of the data context: the one commands write (tests point both at a fresh one). */
const db = () => dataContext().db;

/** Programs by name (case-insensitive), so the list and the AddCohort select read alike. */
export function byProgramName(a: Program, b: Program): number {
  return (a.program_name ?? '').localeCompare(b.program_name ?? '', undefined, { sensitivity: 'base' });
}

export function usePrograms(): Program[] | undefined {
  return useLiveQuery(async () => (await db().programs.toArray()).sort(byProgramName), []);
}

/** As usePrograms, each with a key that stays the same when the server assigns its id (S2). */
export function useKeyedPrograms(): Keyed<Program>[] | undefined {
  return useLiveQuery(async () => keyByAlias('Program', (await db().programs.toArray()).sort(byProgramName)), []);
}

/** `null` when the id (or its temporary-id alias) matches no program. */
export function useProgram(id: string): Program | null | undefined {
  return useLiveQuery(() => getByIdOrAlias(db().programs, id), [id]);
}

/** Programs by id, for labelling cohort cards without one read per card. */
export function useProgramsById(): Map<string, Program> | undefined {
  return useLiveQuery(async () => new Map((await db().programs.toArray()).map((p) => [p.id, p])), []);
}
