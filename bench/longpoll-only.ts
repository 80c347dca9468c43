import { runLongPollBenchmark } from './longpoll.ts';

await runLongPollBenchmark();
