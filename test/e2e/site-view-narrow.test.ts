// The site's pages at 360 px in the light scheme, axe's layout rules (site-views.ts).
import { describeView } from './site-views.ts';

describeView({ width: 360, passes: [{ scheme: 'light', axe: 'layout' }] });
