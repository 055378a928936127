// The site's pages at 1280 px: every axe rule in the light scheme, then, on each page as loaded,
// the colour rules in the dark scheme (site-views.ts).
import { describeView } from './site-views.ts';

describeView({ width: 1280, passes: [{ scheme: 'light', axe: 'all' }, { scheme: 'dark', axe: 'colour' }] });
