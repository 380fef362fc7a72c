/**
 * The tabs of the object page (issue #22 § One object, § History, § Edit safely, § Who may): each
 * tab is a view of the object the page has read; the page shows them in this order.
 */
import type { ComponentType } from 'preact';
import type { ResourceInfo } from '../../api/discovery';
import type { ApiTarget } from '../../router';

/** What every tab gets: the object as last read, its resource, and a way to read it again. */
export interface ObjectTabProps {
  target: ApiTarget;
  resource: ResourceInfo;
  object: Record<string, any>;
  /** Reads the object again (after a save). */
  reload(): void;
}

/** One tab: its id (used in the URL query `?tab=<id>`), its title and its view. */
export interface ObjectTab {
  id: string;
  title: string;
  view: ComponentType<ObjectTabProps>;
}

/** The tabs, in order. Each area appends its own. */
export const objectTabs: ObjectTab[] = [];
