import { render } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { App } from '../../../src/app/app';
import { createAppRouter } from '../../../src/app/routes';
import { fakeEnvironment, fakePlatform, type FakeServer } from './fake-platform';
import type { User } from '../../../src/data/types';

/** Renders the real shell at `path` against a scripted platform. */
export function renderShell(path: string, server: FakeServer, envOptions: { token?: string | null; cachedUser?: User | null; pending?: number } = {}) {
  const platform = fakePlatform(server);
  const env = fakeEnvironment(envOptions);
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ history });
  const view = render(<App client={platform.client} env={env} router={router} />);
  return { ...view, ...platform, env, router, history };
}
