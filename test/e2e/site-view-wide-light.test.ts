// The site's pages at 1280 px in the light scheme, every axe rule (site-views.ts).
import { describeView } from './site-views.ts';

describeView({ width: 1280, scheme: 'light', axe: 'all' });
