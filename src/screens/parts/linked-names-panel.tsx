import type { PageName } from '../../shell-api/paths';
import { Panel } from '../../ui/card';
import { pageUrl } from '../../shell-api/paths';
import { PageLink } from '../../ui/page-link';
import { Covers } from './scope-absence';

/**
 * A titled list of links (the Sites of a program, the Programs of a site). `covers` says what the
 * list covers on a tablet holding some sites ('at your 3 sites', issue #22.4), beside the title.
 */
export function LinkedNamesPanel({
  title,
  page,
  items,
  empty,
  covers = '',
}: {
  title: string;
  page: PageName;
  items: { id: string; name: string }[];
  empty: string;
  covers?: string;
}) {
  return (
    <Panel
      title={
        <>
          {title}
          <Covers phrase={covers} />
        </>
      }
    >
      {items.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="space-y-1">
          {items.map((item) => (
            <li key={item.id}>
              <PageLink href={pageUrl(page, item.id)} className="block rounded-md px-2 py-1.5 text-sm font-medium text-blue-700 hover:bg-blue-50">
                {item.name}
              </PageLink>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
