// The budget decision is lib/memory's (composeContext); its error is re-exported for the context's callers.
export { ContextBudgetError } from "@/lib/memory";
