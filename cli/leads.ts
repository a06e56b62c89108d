// The leads CLI's entry point, bundled by scripts/bundle.mjs and started by `npm run leads`.
import { main } from "./leads/main";

process.exitCode = await main(process.argv);
