import { render } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { App } from '../../../src/app/app';
import { createAppRouter, type RouteScreens } from '../../../src/app/routes';
import { db } from '../../../src/data/db';
import { makeDevice } from '../../support/device';
import { fakeEnvironment, fakePlatform, type FakeEnvironmentOptions, type FakeServer } from './fake-platform';
import { STAND_INS } from './mock-screens';

/**
 * Renders the real shell at `path` against a scripted platform, on a device over the app's database
 * (the one component tests seed), signed out until the (fake) sync runtime would sign it in. The
 * entity pages are stand-ins (mock-screens.tsx STAND_INS), and `screens` stands in more.
 */
export function renderShell(path: string, server: FakeServer, envOptions: FakeEnvironmentOptions = {}, screens: Partial<RouteScreens> = {}) {
  const platform = fakePlatform(server);
  const env = fakeEnvironment(envOptions);
  const { data } = makeDevice({ db, userId: null, now: () => Date.now() });
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ history, screens: { ...STAND_INS, ...screens } });
  const view = render(<App data={data} client={platform.client} env={env} router={router} />);
  return { ...view, ...platform, env, router, history, data };
}
