package main

// clockHelp is --clock's help, for run, compare, find and advise.
const clockHelp = "the time the run lives on: virtual (the embedded service in process only: the client, its retries and timeouts, and the service's model advance on one virtual clock, deterministic and never short of CPU) or wall (this machine's clock); default: virtual on the embedded target in process with a model that takes time, else wall"
