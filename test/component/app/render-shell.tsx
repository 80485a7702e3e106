import { render } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { App } from '../../../src/app/app';
import { createAppRouter } from '../../../src/app/routes';
import { fakeEnvironment, fakePlatform, type FakeEnvironmentOptions, type FakeServer } from './fake-platform';

/** Renders the real shell at `path` against a scripted platform. */
export function renderShell(path: string, server: FakeServer, envOptions: FakeEnvironmentOptions = {}) {
  const platform = fakePlatform(server);
  const env = fakeEnvironment(envOptions);
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ history });
  const view = render(<App client={platform.client} env={env} router={router} />);
  return { ...view, ...platform, env, router, history };
}
