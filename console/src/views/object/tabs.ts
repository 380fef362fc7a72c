/**
 * The tabs of the object page (issue #22 § One object, § History, § Edit safely, § Who may): each
 * tab is a view of the object the page has read; the page shows them in this order.
 */
import type { ComponentType } from 'preact';
import type { ResourceInfo } from '../../api/discovery';
import type { ApiTarget } from '../../router';
import { WhoCanTab } from '../access/who-can-tab';
import { EditTab } from '../edit/edit-tab';
import { EventsTab } from './events-tab';
import { FieldsTab } from './fields-tab';
import { HistoryTab } from './history-tab';
import { RelatedTab } from './related-tab';
import { YamlTab } from './yaml-tab';

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
export const objectTabs: ObjectTab[] = [
  { id: 'yaml', title: 'YAML', view: YamlTab },
  { id: 'fields', title: 'Fields', view: FieldsTab },
  { id: 'events', title: 'Events', view: EventsTab },
  { id: 'related', title: 'Related', view: RelatedTab },
  { id: 'history', title: 'History', view: HistoryTab },
  { id: 'edit', title: 'Edit', view: EditTab },
  { id: 'who-can', title: 'Who can', view: WhoCanTab },
];
