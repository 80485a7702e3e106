import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// The layer map of docs/design.md is eslint.config.js; this checks it refuses the crossings the
// architecture forbids (and accepts the allowed imports), so the lint step in `npm test` can fail.
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId ?? `parse: ${m.message}`);
}

describe('boundary rules (eslint.config.js)', () => {
  it.each([
    ['a screen reading Dexie tables', 'src/screens/sync/x.ts', "import { db } from '../../data/db';\nexport const x = db;"],
    ['a screen reaching the sync engine', 'src/screens/sync/x.ts', "import { SyncEngine } from '../../data/sync/engine';\nexport const x = SyncEngine;"],
    ['a screen holding the platform client', 'src/screens/admin-approvals/x.ts', "import { createPlatformClient } from '../../platform';\nexport const x = createPlatformClient;"],
    ['a screen importing another screen', 'src/screens/site-detail/x.ts', "import { ProgramBody } from '../program-detail/program-body';\nexport const x = ProgramBody;"],
    ['ui/ importing the shell', 'src/ui/x.ts', "import { pagePath } from '../app/paths';\nexport const x = pagePath;"],
    ['domain/ importing the data layer', 'src/domain/x.ts', "import { createParticipant } from '../data/commands/participants';\nexport const x = createParticipant;"],
    ['the engine importing commands', 'src/data/sync/x.ts', "import { createRecord } from '../commands/record-writes';\nexport const x = createRecord;"],
    ['the server importing the PWA', 'server/x.ts', "import { accessBadge } from '../src/domain/access';\nexport const x = accessBadge;"],
    ['the store importing HTTP errors', 'server/store/x.ts', "import { HttpError } from '../errors';\nexport const x = HttpError;"],
  ])('refuses %s', async (_name, filePath, code) => {
    expect(await ruleIds(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it('refuses Dexie in the PWA parts', async () => {
    expect(await ruleIds('src/pwa/x.ts', "import { useLiveQuery } from 'dexie-react-hooks';\nexport const x = useLiveQuery;")).toContain('no-restricted-imports');
  });

  it.each([
    ['a screen using queries, commands, online calls, domain, ui, app and screen parts', 'src/screens/cohort-detail/x.ts',
      "import { useCohort } from '../../data/queries/cohorts';\nimport { updateCohort } from '../../data/commands/cohorts';\nimport { useAdminUsers } from '../../data/online/admin-users';\nimport { formatDate } from '../../domain/format';\nimport { Button } from '../../ui/button';\nimport { pageUrl } from '../../app/paths';\nimport { ProgramForm } from '../parts/program-form';\nexport const x = [useCohort, updateCohort, useAdminUsers, formatDate, Button, pageUrl, ProgramForm];"],
    ['the server and the client reading shared/', 'server/x.ts', "import { accessState } from '../shared/access-state';\nexport const x = accessState;"],
  ])('accepts %s', async (_name, filePath, code) => {
    expect(await ruleIds(filePath, code)).toEqual([]);
  });
});
