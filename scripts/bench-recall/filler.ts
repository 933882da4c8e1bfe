import type { Lang } from "./facts";

// Everyday conversation that surrounds the facts: requests on ordinary topics and long assistant answers, so
// that a conversation has the size and the vocabulary overlap of a real one (names, places, food, work, times of
// day come up all the time without being the fact asked about).

interface Topic {
  slots: readonly string[];
  asks: readonly string[];
  says: readonly string[];
}

const EN_TOPICS: readonly Topic[] = [
  {
    slots: ["a risotto", "lentil soup", "banana bread", "a Thai green curry", "shakshuka", "focaccia"],
    asks: [
      "Can you give me a simple recipe for {x}?",
      "I want to cook {x} for friends on Saturday, any tips?",
      "What goes wrong most often when people make {x}?",
    ],
    says: [
      "For {x}, start by getting everything measured before the pan is hot; it makes the timing much calmer.",
      "Most of the flavour in {x} comes from browning the base properly, so give the onions a full ten minutes.",
      "Season in stages rather than all at the end, tasting as you go.",
      "If you are cooking for a group, {x} scales well, but widen the pan rather than deepening it.",
      "A common mistake is rushing the resting time; the texture settles as it cools slightly.",
      "Fresh herbs at the end lift the whole dish, and a squeeze of lemon balances richness.",
      "You can prepare most of it the day before and finish it just before your guests arrive.",
      "Keep a little stock or water nearby to adjust the consistency at the last minute.",
    ],
  },
  {
    slots: [
      "a weekend in Lisbon",
      "a hiking trip in the Dolomites",
      "a rail trip across Scandinavia",
      "a week in Kyoto",
    ],
    asks: ["Help me plan {x}.", "What should I pack for {x}?", "Is {x} doable on a tight budget?"],
    says: [
      "For {x}, book the transport first, since prices move faster than accommodation.",
      "Pack layers: mornings and evenings can be much cooler than the afternoon.",
      "A rough daily plan with one fixed highlight and plenty of slack usually works better than a packed schedule.",
      "Check whether museums close on Mondays; many do, and it catches travellers out.",
      "Travel insurance that covers cancellations is worth it for anything booked far ahead.",
      "Local transport passes often pay for themselves within two days.",
      "Keep digital and paper copies of your bookings in case your phone battery dies.",
      "Try to eat where the lunch menu is written only in the local language; it is usually better value.",
    ],
  },
  {
    slots: [
      "a Python script",
      "a SQL query",
      "a React component",
      "a bash one-liner",
      "a regular expression",
    ],
    asks: [
      "Can you review {x} I wrote for parsing log files?",
      "Why would {x} be slow on large inputs?",
      "How do I make {x} easier to test?",
    ],
    says: [
      "Looking at {x}, the first thing I would do is separate reading the input from processing it.",
      "Performance problems with {x} usually come from doing work inside a loop that could happen once outside it.",
      "Write a small test with a known input and expected output before you change anything.",
      "Give the intermediate values names; it makes the intent much clearer to the next reader.",
      "If the data is large, stream it line by line instead of loading it all into memory.",
      "Edge cases worth checking are empty input, a single line, and unusual characters.",
      "Logging the count of processed records at the end is a cheap sanity check.",
      "Once it works, profile before optimising; the slow part is rarely where we expect it.",
    ],
  },
  {
    slots: ["a monthly budget", "an emergency fund", "paying off a credit card", "saving for a deposit"],
    asks: [
      "How should I approach {x}?",
      "Any rules of thumb for {x}?",
      "I keep failing at {x}, what can I change?",
    ],
    says: [
      "With {x}, the most important step is knowing where the money actually goes for one full month.",
      "Automating transfers on payday removes most of the willpower from the equation.",
      "Separate fixed costs from flexible ones, and review the flexible ones weekly.",
      "Small recurring subscriptions add up; list them all and cancel the ones you forgot about.",
      "A target of three to six months of essential expenses is the usual guideline for a safety cushion.",
      "Celebrate milestones so that the plan stays motivating over a long period.",
      "If income varies, budget from your lowest typical month rather than the average.",
    ],
  },
  {
    slots: ["a squeaky door hinge", "a dripping tap", "mould in the bathroom", "a draughty window"],
    asks: ["How do I fix {x}?", "Should I call someone about {x} or can I do it myself?", "What causes {x}?"],
    says: [
      "For {x}, start by identifying exactly where the problem comes from before buying any parts.",
      "Most hardware shops will match a part if you bring the old one with you.",
      "Turn off the water or power where relevant and take a photo before you dismantle anything.",
      "Ventilation solves a surprising number of household problems, especially in older buildings.",
      "If you rent, tell the owner in writing; repairs like this are often their responsibility.",
      "A little silicone lubricant or fresh sealant is often all that is needed.",
      "Keep a small toolbox with a screwdriver set, pliers and tape for jobs like this.",
    ],
  },
  {
    slots: [
      "a cover letter",
      "a birthday speech",
      "a complaint email",
      "a short story opening",
      "a toast for a wedding",
    ],
    asks: ["Can you help me write {x}?", "Does {x} need to be formal?", "How long should {x} be?"],
    says: [
      "A good {x} opens with something concrete rather than a general statement.",
      "Keep sentences short where the emotion or the request matters most.",
      "Read it aloud once; awkward phrasing is much easier to hear than to see.",
      "One specific example is more convincing than three vague claims.",
      "End with a clear next step or a warm closing line, depending on the purpose.",
      "Cut the first paragraph of the draft and see whether it reads better; it often does.",
      "Aim for a length that respects the reader's time, usually under a page.",
    ],
  },
  {
    slots: ["sleeping better", "stretching after desk work", "drinking more water", "a morning routine"],
    asks: [
      "Any advice on {x}?",
      "I'm struggling with {x}, where do I start?",
      "Is there science behind {x}?",
    ],
    says: [
      "With {x}, consistency matters more than intensity; small daily habits beat occasional big efforts.",
      "Tie the new habit to something you already do every day, like making coffee.",
      "Track it for two weeks with a simple tick in a notebook.",
      "Expect to miss days; what matters is returning to it the next day.",
      "Screens late in the evening make most routines harder, so set a cut-off time.",
      "If something hurts rather than just feeling unfamiliar, stop and ask a professional.",
      "Most people notice a difference after about three weeks.",
    ],
  },
  {
    slots: [
      "a film for a rainy evening",
      "a documentary about space",
      "a podcast for long drives",
      "a board game for four",
    ],
    asks: [
      "Can you recommend {x}?",
      "What's a good choice for {x} that isn't too long?",
      "I need {x}, any ideas?",
    ],
    says: [
      "For {x}, it helps to know whether you want something light or something that makes you think.",
      "Critics and audiences often disagree; look at both scores before deciding.",
      "Shorter choices are easier to fit into a weeknight.",
      "Something with a strong central character tends to hold attention best.",
      "Ask the others what they enjoyed last time; it narrows the field quickly.",
      "Libraries often lend films and games as well as books.",
    ],
  },
];

const ZH_TOPICS: readonly Topic[] = [
  {
    slots: ["番茄炒蛋", "红烧肉", "酸辣汤", "葱油饼", "麻婆豆腐"],
    asks: ["能给我一个{x}的简单做法吗？", "周六想给朋友做{x}，有什么建议？", "做{x}最容易出错的地方是什么？"],
    says: [
      "做{x}之前先把所有材料准备好，开火以后节奏会从容很多。",
      "{x}的味道很大程度上取决于火候，前期炒香底料非常关键。",
      "调味要分几次进行，边做边尝。",
      "如果人多，可以把{x}的分量加倍，但最好换个更大的锅。",
      "最后撒点葱花或香菜，整道菜会更有层次。",
      "很多步骤可以提前一天准备，客人来之前再完成最后一步。",
      "汤汁的浓稠度可以在最后用一点水或高汤调整。",
    ],
  },
  {
    slots: ["去云南旅行一周", "周末去黄山徒步", "带父母去海边", "一个人去日本自由行"],
    asks: ["帮我规划一下{x}。", "{x}需要带些什么？", "预算有限的话{x}可行吗？"],
    says: [
      "{x}的话，建议先订交通，交通价格比住宿涨得快。",
      "带几件可以叠穿的衣服，早晚温差可能很大。",
      "每天安排一个重点景点，留出足够的空闲时间，通常比排满行程效果更好。",
      "提前查一下景区的开放时间，有些地方周一闭馆。",
      "预订较早的行程最好买可以退改的保险。",
      "把订单截图和纸质版都备一份，以防手机没电。",
      "当地的交通卡一般两天就能回本。",
    ],
  },
  {
    slots: ["一个Python脚本", "一条SQL查询", "一个前端组件", "一个正则表达式"],
    asks: ["能帮我看看我写的{x}吗？", "为什么{x}在大数据量下很慢？", "怎么让{x}更容易测试？"],
    says: [
      "看{x}，我首先会把读取输入和处理逻辑分开。",
      "{x}的性能问题通常来自在循环里重复做本可以只做一次的工作。",
      "改动之前先写一个输入和期望输出都确定的小测试。",
      "给中间变量起有意义的名字，下一个读代码的人会轻松很多。",
      "数据量大的时候，逐行流式处理比一次性读进内存更稳妥。",
      "值得检查的边界情况有空输入、只有一行以及特殊字符。",
      "先跑通，再做性能分析，慢的地方往往不在我们以为的位置。",
    ],
  },
  {
    slots: ["每月预算", "应急基金", "还信用卡", "攒首付"],
    asks: ["{x}应该怎么规划？", "关于{x}有什么经验法则？", "我总是做不好{x}，该怎么改变？"],
    says: [
      "做{x}，最重要的一步是先完整记录一个月的钱都花在了哪里。",
      "发工资当天自动转账，可以省掉大部分意志力的消耗。",
      "把固定支出和弹性支出分开，弹性支出每周回顾一次。",
      "小额的订阅服务累积起来也不少，列出来把忘记的都取消掉。",
      "一般建议准备三到六个月的基本生活开支作为缓冲。",
      "收入不稳定的话，按收入最低的月份来做预算。",
    ],
  },
  {
    slots: ["改善睡眠", "久坐后拉伸", "多喝水", "建立晨间习惯"],
    asks: ["关于{x}有什么建议？", "我在{x}上一直做不好，从哪里开始？", "{x}有科学依据吗？"],
    says: [
      "{x}的关键在于坚持，小而持续的习惯胜过偶尔的大努力。",
      "把新习惯和每天都会做的事绑定，比如泡咖啡之后。",
      "用本子简单打勾记录两周。",
      "偶尔中断很正常，重要的是第二天继续。",
      "晚上太晚看屏幕会让大多数习惯更难坚持，给自己定个截止时间。",
      "大多数人大约三周后会感觉到变化。",
    ],
  },
];

export const TOPICS: Record<Lang, readonly Topic[]> = { en: EN_TOPICS, zh: ZH_TOPICS };

/** Lead-ins and follow-ups that wrap a fact inside an ordinary message, as people write. */
export const WRAP: Record<Lang, { before: readonly string[]; after: readonly string[] }> = {
  en: {
    before: ["", "", "Morning! ", "Okay, random thing first. ", "Long day. ", "Hi again. "],
    after: ["", " Anyway, {ask}", " But what I actually wanted: {ask}", " Also, {ask}"],
  },
  zh: {
    before: ["", "", "早上好！", "先说件事。", "今天好累。", "又来啦。"],
    after: ["", "对了，{ask}", "不过我真正想问的是：{ask}", "另外，{ask}"],
  },
};

export type { Topic };
