// The site's pages at 1280 px in the dark scheme, axe's colour rules (site-views.ts).
import { describeView } from './site-views.ts';

describeView({ width: 1280, scheme: 'dark', axe: 'colour' });
