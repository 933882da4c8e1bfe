// The facts a generated user states once, in varied wording, and the paraphrased questions that ask for them.
// Questions deliberately avoid the statement's own words where a person would (synonyms, other word order,
// "when did…"), and every fact has distractors: the same topic and words about someone or something else.
//
// `{v}` is the fact's value, `{d}` a different value of the same kind (for distractors).

export type Lang = "en" | "zh";

export interface FactKind {
  id: string;
  values: readonly string[];
  /** Ways the user first states it. */
  state: readonly string[];
  /** A later change of the value (the question then asks for the current one). */
  update?: readonly string[];
  /** Paraphrased questions for the current value. */
  ask: readonly string[];
  /** Questions for the value before the change (only for kinds with `update`). */
  askBefore?: readonly string[];
  /**
   * Other wordings of `ask` and `askBefore` (`--wording fresh`), written after the ranking and its expansion groups
   * were tuned on `ask`, never used to tune anything: a check of how much of the figure is fit to the wording.
   */
  fresh: readonly string[];
  freshBefore?: readonly string[];
  /** Same-topic lines that are not the fact. */
  distract: readonly string[];
  /** A "when did…" kind: the answer is the date of the statement. */
  when?: boolean;
}

const FIRST_NAMES = [
  "Pepper",
  "Biscuit",
  "Juniper",
  "Miso",
  "Comet",
  "Waffles",
  "Maple",
  "Ziggy",
  "Nutmeg",
  "Pixel",
];
const CITIES = [
  "Lyon",
  "Porto",
  "Tampere",
  "Graz",
  "Ghent",
  "Bologna",
  "Valencia",
  "Kraków",
  "Aarhus",
  "Bilbao",
];
const PEOPLE = [
  "Marguerite",
  "Tobias",
  "Ingrid",
  "Rafael",
  "Beatrix",
  "Cosmo",
  "Delphine",
  "Oskar",
  "Henrietta",
];

export const EN_FACTS: readonly FactKind[] = [
  {
    id: "pet-name",
    values: FIRST_NAMES,
    state: [
      "We finally brought home the rescue beagle last weekend and the kids settled on calling him {v}.",
      "Quick update from home: the little terrier we adopted answers to {v} now, after a week of trying names.",
      "{v} — that's what we ended up naming the shelter puppy, my partner insisted.",
    ],
    ask: [
      "What did we end up calling the dog?",
      "Remind me what my puppy's name is?",
      "What's our pup called again?",
    ],
    fresh: ["Do you remember what name we gave our new dog?", "Our family dog: what do we call him?"],
    distract: [
      "My neighbour's cat is called {d}, she keeps sneaking into our garden.",
      "At the park today I met a golden retriever named {d}, so friendly.",
    ],
  },
  {
    id: "home-city",
    values: CITIES,
    state: [
      "Since the move I've been getting used to {v} — the flat is small but the neighbourhood is lovely.",
      "Living in {v} these days, so timezone-wise I'm on central European time.",
    ],
    update: [
      "Big news: we relocated again, the job moved us to {v} and we signed the lease yesterday.",
      "So we packed everything up once more; home is {v} now, at least for the next few years.",
    ],
    ask: ["Which city am I based in at the moment?", "Where is home for me currently?"],
    askBefore: ["Where was I living before the most recent relocation?"],
    fresh: ["What town do I live in now?", "Where did I end up settling down?"],
    freshBefore: ["Which city did I leave when I last moved?"],
    distract: [
      "My cousin keeps telling me to visit {d}, apparently the food there is incredible.",
      "There was a documentary about {d} on TV last night, beautiful old town.",
    ],
  },
  {
    id: "allergy",
    values: ["peanuts", "shellfish", "sesame", "kiwi", "penicillin", "latex", "hazelnuts", "celery"],
    state: [
      "Heads-up for any recipe ideas: I react badly to {v}, ended up in A&E once as a teenager.",
      "I have to avoid {v} completely — the doctor confirmed the allergy with a skin test.",
    ],
    ask: ["Is there anything I can't eat for medical reasons?", "What am I allergic to?"],
    fresh: [
      "Which food should I stay away from because of my allergy?",
      "Are there foods my body reacts badly to?",
    ],
    distract: [
      "My colleague is allergic to {d}, so the office party menu was a puzzle.",
      "The restaurant had a big sign warning about {d} in the sauces.",
    ],
  },
  {
    id: "sister-job",
    values: [
      "a midwife",
      "an air traffic controller",
      "a glassblower",
      "a patent lawyer",
      "a marine biologist",
    ],
    state: [
      "My younger sister just qualified as {v}, the whole family is so proud of her.",
      "You know what my sister does? She works as {v} — long shifts but she loves it.",
    ],
    ask: ["What's my sibling's profession?", "What does my sister do for a living?"],
    fresh: ["What kind of work does my sister do?", "What is my sister's job?"],
    distract: [
      "A friend of mine is training to become {d}, it sounds really demanding.",
      "I watched a video about the daily life of {d} yesterday.",
    ],
  },
  {
    id: "support-group",
    values: ["support group", "grief support group", "caregivers' support group"],
    when: true,
    state: [
      "I went to my first {v} session tonight at the community centre. Nervous, but people were kind.",
      "Tonight was the first time I attended the {v} — I mostly listened but it helped.",
    ],
    ask: [
      "When did I first go to the support group?",
      "On what day did I attend that group meeting for the first time?",
    ],
    fresh: ["Which day was my first support group meeting?", "When did I start going to the group sessions?"],
    distract: [
      "The community centre also runs a chess club on Thursdays, might try that one day.",
      "My aunt says her {d} meets every Monday.",
    ],
  },
  {
    id: "car",
    values: ["a secondhand Skoda Octavia", "a red Mazda MX-5", "an old Volvo estate", "a Renault Zoe"],
    state: [
      "Finally bought {v} from a guy two streets over — no more waiting for the night bus.",
      "The new-to-me car is {v}; it needs new tyres but runs beautifully.",
    ],
    update: [
      "Sold the old car and got {v} instead, much better on motorways.",
      "Traded in my car this week — I'm driving {v} now.",
    ],
    ask: ["What vehicle do I drive these days?", "Which car do I own now?"],
    askBefore: ["What car did I have before the trade-in?"],
    fresh: ["What am I driving at the moment?", "What's my current car?"],
    freshBefore: ["Which car did I sell?"],
    distract: [
      "My brother is thinking about getting {d}, what do you think of it?",
      "Saw {d} parked outside the bakery.",
    ],
  },
  {
    id: "marathon",
    values: ["half marathon", "10K race", "trail ultra", "triathlon"],
    when: true,
    state: [
      "Crossed the finish line of the {v} this morning! Legs are jelly but I did it.",
      "Today I completed the {v} — a personal best by four minutes.",
    ],
    ask: ["When did I run that race?", "What was the date when I finished my race?"],
    fresh: ["When did I complete the long-distance run?", "What day was my big race?"],
    distract: [
      "My running club is organising a {d} in the spring.",
      "I might sign up for a {d} next year, not sure yet.",
    ],
  },
  {
    id: "tea",
    values: [
      "smoky lapsang souchong",
      "genmaicha",
      "rooibos with vanilla",
      "a strong Assam",
      "jasmine pearls",
    ],
    state: [
      "My go-to in the morning is {v}, I can't start work without a pot.",
      "Honestly nothing beats {v} for me — I drink it every single day.",
    ],
    ask: ["What's my favourite hot drink in the mornings?", "Which brew do I prefer to start the day?"],
    fresh: ["What do I like to drink first thing in the morning?", "What's my go-to morning cup?"],
    distract: ["My mum only drinks {d}, she says coffee makes her jittery.", "The café had {d} on the menu."],
  },
  {
    id: "employer",
    values: [
      "a small robotics startup",
      "the city library",
      "a wind-turbine manufacturer",
      "a children's hospital",
    ],
    state: [
      "Started the new position last Monday — I'm at {v} now, doing data work.",
      "Work news: I accepted the offer from {v}, the commute is twenty minutes.",
    ],
    update: [
      "Handed in my notice; from next month I'll be working for {v}.",
      "I switched jobs again, I'm with {v} now.",
    ],
    ask: ["Where am I employed right now?", "Who is my current employer?"],
    askBefore: ["Where did I work before I changed jobs?"],
    fresh: ["Which company do I work for now?", "Where's my new job?"],
    freshBefore: ["Which employer did I leave?"],
    distract: [
      "A friend interviewed at {d} and hated the vibe.",
      "There's a job opening at {d} that my cousin applied for.",
    ],
  },
  {
    id: "instrument",
    values: ["the cello", "the bassoon", "the ukulele", "the hammered dulcimer", "the viola"],
    state: [
      "I picked up {v} again after ten years — practising half an hour every evening.",
      "Lessons are going well: my teacher says my bowing on {v} has really improved.",
    ],
    ask: ["Which musical instrument have I been practising?", "What do I play in my evening practice?"],
    fresh: ["What instrument am I learning?", "Which instrument have I taken up?"],
    distract: [
      "My nephew wants to learn {d} but it's so expensive.",
      "The concert last night featured {d} solo.",
    ],
  },
  {
    id: "anniversary",
    values: ["anniversary dinner", "wedding anniversary"],
    when: true,
    state: [
      "We celebrated our {v} today at that little Italian place by the river.",
      "Today was our {v}; we kept it simple with a picnic.",
    ],
    ask: [
      "When did my partner and I celebrate our anniversary?",
      "What date was our anniversary celebration?",
    ],
    fresh: ["On which day did we mark our anniversary?", "When was the anniversary we celebrated?"],
    distract: [
      "My parents' {d} is coming up and I have no gift idea.",
      "Friends of ours had their {d} in Venice.",
    ],
  },
  {
    id: "landlord",
    values: PEOPLE,
    state: [
      "The landlord, {v}, finally fixed the boiler after three weeks of cold showers.",
      "I had to call {v} — she owns our building — about the leak in the bathroom.",
    ],
    ask: ["What's the name of the person who owns the flat I rent?", "Who is my landlady?"],
    fresh: ["What's my landlord called?", "Who do I pay rent to?"],
    distract: [
      "My colleague {d} is looking for a flat too.",
      "{d} from the book club recommended a plumber.",
    ],
  },
  {
    id: "blood-type",
    values: ["O negative", "AB positive", "B negative", "A positive"],
    state: [
      "Donated blood today; the nurse said {v} donors are always in demand.",
      "Just learned from the donation card that I'm {v}.",
    ],
    ask: ["What blood group am I?", "Which blood type did the donation centre tell me I have?"],
    fresh: ["What's my blood type?", "Do you know my blood group?"],
    distract: [
      "My dad is {d}, so I guessed I'd be the same.",
      "They had a shortage of {d} last month according to the news.",
    ],
  },
  {
    id: "language",
    values: ["Portuguese", "Korean", "Finnish", "Welsh", "Turkish"],
    state: [
      "I've started learning {v} with an app, twenty minutes on the train each day.",
      "Signed up for evening classes in {v} — the grammar is brutal but fun.",
    ],
    ask: ["Which foreign tongue am I studying?", "What language am I trying to pick up?"],
    fresh: ["Which language am I learning at the moment?", "What language course am I taking?"],
    distract: ["My roommate speaks fluent {d}.", "There's a {d} film festival in town next week."],
  },
  {
    id: "surgery",
    values: ["knee surgery", "wisdom tooth extraction", "shoulder operation"],
    when: true,
    state: [
      "Had my {v} this morning, everything went fine, resting on the sofa now.",
      "Back home after the {v} — the surgeon said it went smoothly.",
    ],
    ask: ["When was I operated on?", "On which date did I have my procedure?"],
    fresh: ["When did I have my operation?", "What was the date of my surgery?"],
    distract: ["My uncle needs a {d} next year.", "A friend's {d} took months to heal."],
  },
  {
    id: "book-club",
    values: [
      "The Left Hand of Darkness",
      "Middlemarch",
      "Piranesi",
      "The Remains of the Day",
      "Station Eleven",
    ],
    state: [
      "Our reading circle picked {v} for this month, I'm about a third in.",
      "The book group chose {v}; I'm hosting the discussion at my place.",
    ],
    ask: [
      "What novel is my reading group currently on?",
      "Which title did the book club choose for this month?",
    ],
    fresh: ["Which book are we reading in the book club?", "What's the current book-club pick?"],
    distract: [
      "Someone at work lent me {d}, but I haven't started it.",
      "I saw a stage adaptation of {d} once.",
    ],
  },
  {
    id: "gym-time",
    values: ["6 am", "lunchtime", "7:30 in the evening", "right after work"],
    state: [
      "I've settled into working out at {v}, it's the only slot that fits around everything.",
      "New routine: strength training at {v}, three times a week.",
    ],
    update: [
      "Had to shift my exercise to {v} because of the new schedule.",
      "Moved my training sessions to {v} now.",
    ],
    ask: ["At what time of day do I exercise now?", "When do I usually train these days?"],
    askBefore: ["When did I use to work out before changing my routine?"],
    fresh: ["When do I go to the gym now?", "What time are my workouts these days?"],
    freshBefore: ["What time did I train before the schedule changed?"],
    distract: ["The gym is packed at {d}, I've heard.", "My friend swims at {d} every day."],
  },
  {
    id: "garden",
    values: ["heirloom tomatoes", "blueberries", "dahlias", "runner beans", "lavender"],
    state: [
      "The allotment is doing great — the {v} I planted in April are finally thriving.",
      "Spent Sunday weeding around my {v}; they love the sunny corner.",
    ],
    ask: ["What have I been growing on my plot?", "Which plants did I put in at the allotment?"],
    fresh: ["What's growing in my garden plot?", "What vegetables did I plant?"],
    distract: ["The garden centre had a sale on {d}.", "My grandmother always grew {d} by the fence."],
  },
];

const ZH_NAMES = ["豆豆", "糯米", "团子", "可乐", "布丁", "花卷", "元宝", "汤圆"];
const ZH_CITIES = ["成都", "厦门", "青岛", "昆明", "苏州", "大连", "西安", "杭州"];

export const ZH_FACTS: readonly FactKind[] = [
  {
    id: "zh-pet",
    values: ZH_NAMES,
    state: [
      "上周末我们从救助站领养了一只小狗，孩子们给它取名叫{v}。",
      "跟你说，家里新来的小猫叫{v}，特别黏人。",
    ],
    ask: ["我家宠物叫什么名字来着？", "我们给那只小动物起的名字是什么？"],
    fresh: ["我们家的狗叫什么？", "新养的宠物取了什么名字？"],
    distract: ["邻居家的猫叫{d}，总跑到我们院子里。", "公园里遇到一只叫{d}的金毛，很友好。"],
  },
  {
    id: "zh-city",
    values: ZH_CITIES,
    state: ["搬家以后我一直在适应{v}的生活，房子不大但环境很好。", "我现在住在{v}，离公司很近。"],
    update: ["告诉你个消息：因为工作调动，我们又搬到了{v}，昨天刚签了租约。"],
    ask: ["我目前定居在哪座城市？", "我现在的家在哪里？"],
    askBefore: ["最近一次搬家之前我住在哪儿？"],
    fresh: ["我搬到哪个城市了？", "我现在住哪儿？"],
    freshBefore: ["我之前住在哪个城市？"],
    distract: ["表哥一直劝我去{d}玩，说那边的小吃很棒。", "昨晚电视上有一部关于{d}的纪录片。"],
  },
  {
    id: "zh-allergy",
    values: ["花生", "海鲜", "芒果", "芝麻", "青霉素"],
    state: ["推荐菜谱的时候注意一下，我对{v}过敏，小时候还进过急诊。", "医生确认了，我必须完全避开{v}。"],
    ask: ["有什么东西我因为身体原因不能吃？", "我对什么过敏？"],
    fresh: ["我吃什么会过敏？", "哪些食物我不能碰？"],
    distract: ["同事对{d}过敏，公司聚餐的菜单很难定。", "那家餐厅特别标注了酱汁里含有{d}。"],
  },
  {
    id: "zh-job",
    values: ["一家机器人初创公司", "市图书馆", "一家儿童医院", "一家风电设备厂"],
    state: ["上周一开始新工作了，我现在在{v}做数据分析。", "工作有变化：我接受了{v}的offer，通勤二十分钟。"],
    update: ["我已经辞职了，下个月开始去{v}上班。"],
    ask: ["我现在在哪里上班？", "我目前的雇主是谁？"],
    askBefore: ["换工作之前我在哪儿工作？"],
    fresh: ["我新工作在哪家公司？", "我现在给谁打工？"],
    freshBefore: ["我辞职前在哪家单位？"],
    distract: ["朋友去{d}面试过，说氛围不好。", "表妹申请了{d}的一个岗位。"],
  },
  {
    id: "zh-instrument",
    values: ["大提琴", "古筝", "尤克里里", "二胡", "长笛"],
    state: ["时隔十年我又开始练{v}了，每天晚上练半小时。", "上课挺顺利的，老师说我的{v}进步很大。"],
    ask: ["我最近晚上在练什么乐器？", "我在学哪种乐器？"],
    fresh: ["我在练哪种乐器？", "我学的是什么乐器？"],
    distract: ["侄子想学{d}，但是太贵了。", "昨晚的音乐会有{d}独奏。"],
  },
  {
    id: "zh-race",
    values: ["半程马拉松", "十公里跑", "越野跑"],
    when: true,
    state: ["今天早上我跑完了{v}！腿都软了，但是坚持下来了。", "今天完成了{v}，比上次快了四分钟。"],
    ask: ["我是哪天参加那场比赛的？", "我完赛是在什么时候？"],
    fresh: ["我什么时候跑完的那场比赛？", "那次比赛是几号？"],
    distract: ["跑团春天要组织一场{d}。", "明年也许报名{d}，还没决定。"],
  },
  {
    id: "zh-tea",
    values: ["正山小种", "铁观音", "茉莉花茶", "普洱"],
    state: ["我每天早上必喝{v}，不喝一壶就没法开始工作。", "说实话，对我来说没有什么比{v}更好喝了。"],
    ask: ["我早上最爱喝的是什么？", "我每天开工前喝哪种茶？"],
    fresh: ["我早上习惯喝什么茶？", "我最喜欢的早茶是哪种？"],
    distract: ["我妈只喝{d}，她说咖啡让她心慌。", "那家茶馆的菜单上有{d}。"],
  },
  {
    id: "zh-surgery",
    values: ["膝盖手术", "拔智齿", "肩部手术"],
    when: true,
    state: ["今天上午做了{v}，一切顺利，现在在沙发上休息。", "做完{v}回家了，医生说很成功。"],
    ask: ["我是什么时候动的手术？", "我的手术是哪一天做的？"],
    fresh: ["我哪天做的手术？", "我手术的日期是什么时候？"],
    distract: ["叔叔明年要做{d}。", "朋友的{d}恢复了好几个月。"],
  },
  {
    id: "zh-language",
    values: ["葡萄牙语", "韩语", "芬兰语", "土耳其语"],
    state: ["我开始用一个应用学{v}了，每天在地铁上学二十分钟。", "报了{v}的夜校，语法很难但很有意思。"],
    ask: ["我正在学习哪门外语？", "我在努力掌握什么语言？"],
    fresh: ["我在学什么语言？", "我最近在学哪种外语？"],
    distract: ["我室友{d}说得很流利。", "下周城里有{d}电影节。"],
  },
  {
    id: "zh-car",
    values: ["一辆二手思域", "一辆红色的马自达", "一辆比亚迪海豚"],
    state: ["终于买了{v}，再也不用等夜班公交了。", "新买的车是{v}，需要换轮胎但开起来很顺。"],
    update: ["把旧车卖了，换成了{v}，跑高速舒服多了。"],
    ask: ["我现在开的是什么车？", "我目前拥有哪辆汽车？"],
    askBefore: ["换车之前我开的是什么？"],
    fresh: ["我现在开什么车？", "我的新车是哪款？"],
    freshBefore: ["我卖掉的旧车是什么？"],
    distract: ["我哥想买{d}，你觉得怎么样？", "在面包店门口看到{d}。"],
  },
];
