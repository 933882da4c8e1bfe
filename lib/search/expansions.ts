// Query expansion for recall (docs/decisions/026-recall.md, "Ranking"): groups of everyday words that a question
// and the message answering it often use for the same thing ("the dog" / "the terrier we adopted", "where do I
// live" / "we relocated to…", 乐器 / 大提琴). A question term in a group also searches the group's other words, at a
// lower weight than its own. Pure data, English and Chinese; a word may sit in several groups. Kept to common
// personal topics (home, work, family, health, pets, hobbies, food, travel, money, study): it is a small
// thesaurus, not a model, and an embeddings model (EMBEDDINGS_MODEL) covers what it does not.

const EN: readonly string[] = [
  // pets
  "pet dog puppy pup hound beagle terrier retriever labrador poodle spaniel collie dachshund cat kitten kitty adopted shelter rescue",
  "dog puppy pup hound beagle terrier retriever labrador poodle spaniel collie dachshund",
  "cat kitten kitty tabby",
  "name named called calling call answers nickname",
  // home
  "home live living lives house flat apartment moved move relocated relocate relocation based settled lease rent neighbourhood neighborhood city town",
  "landlord landlady owner owns rent rental tenant lease building flat",
  // work
  "job work working employer employed employment position role company office hired career notice workplace colleague boss",
  "salary pay paid raise income wage",
  // transport
  "car vehicle drive driving drove motor sedan hatchback suv van bought traded",
  "bike bicycle cycling cycle commute",
  // study, languages
  "language tongue learning learn studying study classes course lessons fluent speak spanish french german italian portuguese japanese korean chinese mandarin cantonese dutch arabic russian greek polish swedish norwegian hindi",
  "school university college degree graduated studied course diploma masters phd",
  // music
  "instrument play playing practice practise lessons piano guitar violin cello viola flute drums saxophone clarinet trumpet harp banjo",
  // drinks, food
  "drink drinks brew tea coffee beverage cup pot espresso latte",
  "food eat eating dish cook cooking recipe meal favourite favorite cuisine",
  "allergy allergic allergies react reaction avoid intolerant intolerance peanut peanuts gluten lactose medical doctor",
  "vegetarian vegan diet meat",
  // health
  "surgery operation operated procedure surgeon hospital removed knee shoulder hip appendix recovery",
  "doctor appointment checkup diagnosis diagnosed clinic",
  // sport
  "race marathon half ran run running finish line completed triathlon",
  "exercise workout work out train training gym fitness routine sessions strength lift running yoga pilates",
  "morning evening night afternoon after work am pm schedule",
  // reading, media
  "book novel title reading read author book club group chose story",
  "film movie series show watch watching episode",
  "podcast listen listening audiobook",
  // garden
  "garden gardening allotment plot growing grow grew planted planting weeding tomatoes beans vegetables flowers",
  // family, people
  "family mother mum mom father dad parents sister brother sibling daughter son kids children wife husband partner",
  "friend friends mate colleague neighbour neighbor",
  "birthday anniversary wedding party celebrate celebration",
  // travel
  "trip travel travelling traveling holiday vacation visit visited flight flew journey",
  // money
  "budget saving savings save money spend spending debt loan mortgage deposit",
];

const ZH: readonly string[] = [
  "宠物 小狗 狗狗 小猫 猫咪 领养",
  "名字 取名 叫做 起名",
  "住在 搬家 搬到 租约 房子 公寓 城市 生活",
  "房东 房租 租房 房子",
  "工作 上班 公司 雇主 入职 辞职 职位 通勤 单位",
  "汽车 开车 买车 换车 二手 轮胎",
  "外语 语言 学习 课程 应用",
  "乐器 练琴 钢琴 吉他 小提琴 大提琴 长笛 萨克斯 二胡 古筝 架子鼓",
  "喝茶 茶叶 咖啡 乌龙 绿茶 红茶",
  "过敏 避开 忌口 不能吃 医生",
  "手术 医生 医院 拔牙 康复",
  "比赛 完赛 马拉松 跑步 跑完",
  "锻炼 健身 运动 训练 跑步 瑜伽",
  "读书 小说 书名 读书会 作者",
  "花园 种植 种了 菜地",
  "家人 父母 妈妈 爸爸 姐姐 妹妹 哥哥 弟弟 孩子 老婆 老公",
  "旅行 旅游 出差 度假 机票",
  "预算 存钱 储蓄 花钱 贷款",
];

export interface ExpansionGroups {
  /** Latin words by stem-or-word → the groups (indexes) holding them. */
  latin: Map<string, number[]>;
  /** CJK words → groups. */
  cjk: Map<string, number[]>;
  /** Each group's words. */
  groups: string[][];
}

/** The groups, keyed by `key` (the stem of a Latin word, or the word). */
export function expansionGroups(key: (word: string) => string): ExpansionGroups {
  const groups = [...EN, ...ZH].map((line) => [...new Set(line.split(/\s+/).filter(Boolean))]);
  const latin = new Map<string, number[]>();
  const cjk = new Map<string, number[]>();
  groups.forEach((words, g) => {
    for (const w of words) {
      const map = /[\p{scx=Han}]/u.test(w) ? cjk : latin;
      const k = map === latin ? key(w) : w;
      map.set(k, [...(map.get(k) ?? []), g]);
    }
  });
  return { latin, cjk, groups };
}
