/**
 * The YAML tab (issue #22 § One object): the object as YAML, rendered as text in a `<pre>` (never
 * as HTML: a field holding `<script>` or `javascript:` shows as those characters).
 */
import { stringify } from 'yaml';
import type { ObjectTabProps } from './tabs';

/** issue #22 § One object: the object's YAML, as text. */
export function YamlTab({ object }: ObjectTabProps) {
  return <pre class="object-yaml">{stringify(object, { lineWidth: 0 })}</pre>;
}
