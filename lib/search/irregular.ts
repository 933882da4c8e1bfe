import { isStopTerm } from "./question";

// English verbs whose past forms the stemmer cannot relate to their base ("go" / "went", "buy" / "bought"): a
// question asks in the present ("when did Caroline go…") what a message told in the past ("I went…"). Each line is
// one verb's forms; words with a common other meaning ("rose", "bit", "lay", "wound") are left out, and forms that
// are stop words ("got", "made" stays) are dropped when the table is read.
const VERBS = `
go went gone goes going
buy bought buying
bring brought bringing
teach taught teaching
catch caught catching
think thought thinking
fight fought fighting
seek sought
see saw seen sees seeing
eat ate eaten eating
drink drank drunk drinking
run ran running runs
swim swam swum swimming
sing sang sung singing
begin began begun beginning
win won winning
lose lost losing
meet met meeting
leave left leaving
find found finding
sell sold selling
tell told telling
feel felt feeling
keep kept keeping
sleep slept sleeping
spend spent spending
build built building
send sent sending
lend lent lending
bend bent
mean meant meaning
deal dealt dealing
fly flew flown flying flies
grow grew grown growing
throw threw thrown throwing
blow blew blown
draw drew drawn drawing
drive drove driven driving
ride rode ridden riding
write wrote written writing
rise risen rising
choose chose chosen choosing
break broke broken breaking
speak spoke spoken speaking
wear wore worn wearing
steal stole stolen
wake woke woken waking
freeze froze frozen
forget forgot forgotten forgetting
forgive forgave forgiven
give gave given giving
take took taken taking
shake shook shaken
become became becoming
fall fell fallen falling
hold held holding
stand stood standing
understand understood
pay paid paying
hear heard hearing
sit sat sitting
hide hid hidden
feed fed feeding
lead led leading
hang hung hanging
shoot shot shooting
dig dug digging
stick stuck
strike struck
swing swung
tear tore torn
sink sank sunk
make made making
say said saying
`;

let table: Map<string, readonly string[]> | undefined;

/** The other forms of a verb this word is a form of (none for other words). */
export function irregularForms(word: string): readonly string[] {
  if (!table) {
    table = new Map();
    for (const line of VERBS.trim().split("\n")) {
      const forms = line.split(" ").filter((w) => !isStopTerm(w));
      for (const w of forms)
        table.set(
          w,
          forms.filter((f) => f !== w),
        );
    }
  }
  return table.get(word) ?? [];
}
