// Setup file of the projects that use the global setup's builds: each test file starts once they
// are done (the unit files run meanwhile), or fails with the build's own error.
import { distsBuilt } from './dists-status.ts';

await distsBuilt();
