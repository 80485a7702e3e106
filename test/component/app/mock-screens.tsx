import type { ComponentType } from 'react';
import { lazyScreen } from '../../../src/app/lazy-screen';
import type { RouteScreens } from '../../../src/app/routes';

/**
 * Stand-ins for the entity screens (other helpers' pages, with their own tests): the shell tests
 * check routing, layout and guards, so each page only says which page it is and which id it got.
 * renderShell hands them to the router (createAppRouter's `screens`); each loads as a screen's
 * chunk does (lazyScreen), so the router still awaits a preload before it shows the route.
 */
const page = (name: string) => () => <h1>{`${name} page`}</h1>;
const detail = (name: string) => ({ id }: { id: string }) => <h1>{`${name} page for ${id || '(no id)'}`}</h1>;

/** `component` as a screen of its own chunk. */
export const asScreen = <P extends object>(component: ComponentType<P>) => lazyScreen(async () => component);

/** The screens the shell tests stand in: every entity page; the layout, the 404 and the rare pages stay real. */
export const STAND_INS: Partial<RouteScreens> = {
  Dashboard: asScreen(page('Dashboard')),
  Participants: asScreen(page('Participants')),
  AddParticipant: asScreen(page('AddParticipant')),
  ParticipantDetail: asScreen(detail('ParticipantDetail')),
  Cohorts: asScreen(page('Cohorts')),
  AddCohort: asScreen(page('AddCohort')),
  CohortDetail: asScreen(detail('CohortDetail')),
  ProgramsSites: asScreen(page('ProgramsSites')),
  ProgramDetail: asScreen(detail('ProgramDetail')),
  SiteDetail: asScreen(detail('SiteDetail')),
  Sync: asScreen(page('Sync')),
};
