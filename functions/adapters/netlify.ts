// Netlify Functions (v2, Web-standard). netlify.toml rewrites function routes and unknown
// /api and /embed paths to /.netlify/functions/api.
import { originHandler } from './shards-over-http.ts';

export default originHandler();
