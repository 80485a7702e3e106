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
    ['ui/ importing the shell', 'src/ui/x.ts', "import { App } from '../app/app';\nexport const x = App;"],
    ['domain/ importing the data layer', 'src/domain/x.ts', "import { createParticipant } from '../data/commands/participants';\nexport const x = createParticipant;"],
    ['the engine importing commands', 'src/data/sync/x.ts', "import { createRecord } from '../commands/record-writes';\nexport const x = createRecord;"],
    ['the server importing the PWA', 'server/x.ts', "import { accessBadge } from '../src/domain/access';\nexport const x = accessBadge;"],
    ['the store importing HTTP errors', 'server/store/x.ts', "import { HttpError } from '../errors';\nexport const x = HttpError;"],
    // Issue #27.4: app/ is the shell above the screens, not a library below them.
    ['a screen importing the shell', 'src/screens/dashboard/x.ts', "import { useAuth } from '../../app/auth/auth-context';\nexport const x = useAuth;"],
    ['pwa/ importing the shell', 'src/pwa/x.ts', "import { App } from '../app/app';\nexport const x = App;"],
    ['shell-api/ importing the data layer', 'src/shell-api/x.ts', "import { useParticipants } from '../data/queries/participants';\nexport const x = useParticipants;"],
    ['ui/ importing shell-api/', 'src/ui/x.ts', "import { pagePath } from '../shell-api/paths';\nexport const x = pagePath;"],
    ['the shell reaching Dexie tables', 'src/app/x.ts', "import { db } from '../data/db';\nexport const x = db;"],
    ['the shell reaching the engine', 'src/app/auth/x.ts', "import { SyncEngine } from '../../data/sync/engine';\nexport const x = SyncEngine;"],
    // A screen folder made today is covered without editing eslint.config.js (zones read the tree).
    ['every screen folder importing another screen', 'src/screens/cohorts/x.ts', "import { DashboardPage } from '../dashboard/dashboard-page';\nexport const x = DashboardPage;"],
  ])('refuses %s', async (_name, filePath, code) => {
    expect(await ruleIds(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it.each(['src/pwa/x.ts', 'src/app/auth/x.ts', 'src/shell-api/x.ts', 'src/screens/sync/x.ts'])('refuses Dexie live queries in %s', async (filePath) => {
    expect(await ruleIds(filePath, "import { useLiveQuery } from 'dexie-react-hooks';\nexport const x = useLiveQuery;")).toContain('no-restricted-imports');
  });

  it.each([
    ['a screen using queries, commands, online calls, the data context, domain, ui, shell-api and screen parts', 'src/screens/cohort-detail/x.ts',
      "import { useCohort } from '../../data/queries/cohorts';\nimport { updateCohort } from '../../data/commands/cohorts';\nimport { useAdminUsers } from '../../data/online/admin-users';\nimport { useDataContext } from '../../data/provider';\nimport { formatDate } from '../../domain/format';\nimport { Button } from '../../ui/button';\nimport { pageUrl } from '../../shell-api/paths';\nimport { ProgramForm } from '../parts/program-form';\nexport const x = [useCohort, updateCohort, useAdminUsers, useDataContext, formatDate, Button, pageUrl, ProgramForm];"],
    ['the shell starting the data layer and reading through it', 'src/app/auth/x.ts',
      "import { startDataSync } from '../../data/runtime';\nimport { useSessionFacts } from '../../data/queries/session-facts';\nimport { pagePath } from '../../shell-api/paths';\nexport const x = [startDataSync, useSessionFacts, pagePath];"],
    ['the server and the client reading shared/', 'server/x.ts', "import { accessState } from '../shared/access-state';\nexport const x = accessState;"],
  ])('accepts %s', async (_name, filePath, code) => {
    expect(await ruleIds(filePath, code)).toEqual([]);
  });
});
