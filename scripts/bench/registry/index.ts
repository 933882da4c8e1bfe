import { api } from "./api";
import { counts } from "./counts";
import { integrity } from "./integrity";
import { mcp } from "./mcp";
import { multi } from "./multi";
import { profile } from "./profile";
import type { RegisteredWorkload } from "./types";
import { w1 } from "./w1";
import { w1b } from "./w1b";
import { w1f } from "./w1f";
import { w1x } from "./w1x";
import { w2 } from "./w2";
import { w3 } from "./w3";
import { w4 } from "./w4";
import { w5 } from "./w5";
import { w6 } from "./w6";
import { w7 } from "./w7";
import { w8 } from "./w8";
import { w9 } from "./w9";
import { w10 } from "./w10";

/**
 * Every workload of `npm run bench`, in the order they run (within their phase) and are reported. A new
 * workload is one file here: `{ id, phase, run, targets, checks, render }`.
 */
export const WORKLOADS: RegisteredWorkload[] = [
  counts,
  w1,
  w1b,
  w1f,
  w1x,
  profile,
  w2,
  w4, // before anything makes sessions of its own: it walks the admin list expecting the seeded sessions
  w5, // after W4: it deletes through the admin API when W4 found it
  api,
  w7,
  w8, // after W1 and W7: it indexes W1's seeded history and switches its sessions' recall
  w10,
  w3,
  w6,
  w9,
  multi,
  mcp,
  integrity,
];
