# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-first fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh21``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history (log, show,
diffs) nor the rows of any corpus (the tables of test_corpus.py, the rows of any corpus_people*.py) — only
the eighth fresh set's module docstring (for the format and the rules), the measuring helpers (``_rows``,
``_kind``, ``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in
test_corpus_people.py, their bodies only), the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no start) and the ruff settings in pyproject.toml. It did not search the
repository for phrases and did not run the parser or the measure on these rows. Each row was labelled with
what a careful human assistant would do with the two timed apps installed (a focus timer and an
arithmetic quiz): an unclear request is ``ask`` or ``help``, never a guess. It is measured once, by someone
else, after all rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for
later, things it cannot do — reminders, alarms, pausing, Notes, quizzes on anything but the four
arithmetic kinds — scores reported and greetings). An activity is written as the person would want the
timer labelled, cut from the request in their words; a reason added after the request (“because…”,
“the baby just went down”, “因为下午要考模拟卷”) is not an activity, and a plan for after the focus is not
one either.

Written as new voices — a beekeeper, a flight-school student, a Singaporean writing Singlish and
simplified Chinese, a village doctor, a stand-up comedian writing jokes, a retired teacher who tutors
maths, an e-sports coach, a hospital pharmacist, a new father on paternity leave, someone preparing the
civil-service exam (考公), a shy person who asks very indirectly and a person who always adds the reason
after the request — typing on phones and laptops: typos, slang, numbers as words and digits, emoji,
mixed zh/en in both tables, some traditional characters, context first, durations before or after the
verb. The mix, per language: about a third focus starts (with and without activity), a fifth quizzes
(with kinds and without, durations in various forms), stops (also with both running, stopping one and
keeping the other), status questions, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured once, as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH21_EN = """
start a 25 min focus | start | 1500 | -
Focus for forty-five minutes on my thesis intro please | start | 2700 | thesis intro
30 mins focus on the hive inspection log | start | 1800 | hive inspection log
need an hour of focus for the beekeeping newsletter | start | 3600 | beekeeping newsletter
start focus 90 min, ground school reading | start | 5400 | ground school reading
can u do 2 hrs focus on METAR decoding | start | 7200 | METAR decoding
Flight sim debrief — focus timer 20 minutes | start | 1200 | flight sim debrief
can help me start 20 min focus lah | start | 1200 | -
Eh start focus one hour for my essay can? | start | 3600 | essay
start a 40 minute focus for patient notes, clinic closes at 6 | start | 2400 | patient notes
focus 15 min on the stock count | start | 900 | stock count
controlled drugs register, focus 25m | start | 1500 | controlled drugs register
45 minutes of focus for writing new bits | start | 2700 | writing new bits
ok comedy brain time: focus 1h on the airport bit | start | 3600 | airport bit
start a 60 min focus for VOD review | start | 3600 | VOD review
baby's asleep!! quick 20 min focus 🙏 | start | 1200 | -
start a focus session of 35 minutes, the baby just went down | start | 2100 | -
50 min focus on the parental leave forms, before he wakes up | start | 3000 | parental leave forms
um, if it's not too much trouble, could you maybe start a 25 minute focus for me? | start | 1500 | -
I think I need about forty minutes of focus, if that's alright | start | 2400 | -
would you mind starting a half-hour focus? sorry to bother | start | 1800 | -
focus 1h30 on lesson plans | start | 5400 | lesson plans
Start 2.5 hours of focus on the quarterly audit | start | 9000 | quarterly audit
focus for 8 hours on the migration script | start | 28800 | migration script
start a 24 hour focus for the hackathon | start | 86400 | hackathon
set the timer for 12 minutes | start | 720 | -
25min focus pls, then I'll reply to emails | start | 1500 | -
Start focus: 55 minutes. Reason: the ATPL exam is in 3 weeks | start | 3300 | -
start a 30-minute focus because my head is all over the place today | start | 1800 | -
focus twenty five minutes on chapter 4 of the pharmacology textbook | start | 1500 | chapter 4 of the pharmacology textbook
3 hours focus on civil service exam prep | start | 10800 | civil service exam prep
考公 prep, focus 2 hours | start | 7200 | 考公 prep
start focusing for 1 hr on my 申论 essay | start | 3600 | 申论 essay
pomodoro 25 on crosswind landing theory | start | 1500 | crosswind landing theory
Start a 75-minute focus block for scouting report prep | start | 4500 | scouting report prep
focus mode 10 minutes 😅 inbox zero | start | 600 | inbox zero
Put me in focus for ninety minutes for checkride prep | start | 5400 | checkride prep
Start a 12 hr focus (night shift paperwork) | start | 43200 | night shift paperwork
start a 10 minute multiplication quiz | quiz | 600 | multiplication
quiz me on times tables for 5 mins | quiz | 300 | multiplication
five minute addition quiz please | quiz | 300 | addition
3 min subtraction drill go | quiz | 180 | subtraction
give me a mental maths quiz, 15 minutes | quiz | 900 | mixed
arithmetic quiz 20 min | quiz | 1200 | mixed
I'd like a ten-minute subtraction drill for myself, keeps the old brain working | quiz | 600 | subtraction
set up a 10 min times-table quiz for my grandson, he's sitting right here | quiz | 600 | multiplication
quiz me for half an hour, mixed sums | quiz | 1800 | mixed
quick 90 second plus quiz lah | quiz | 90 | addition
can do multiplication quiz 15 min or not | quiz | 900 | multiplication
would it be ok if I did a short multiplication quiz, like five minutes? | quiz | 300 | multiplication
Math quiz, one hour, all kinds | quiz | 3600 | mixed
start a 2-minute addition warmup quiz before the match | quiz | 120 | addition
7 min minus quiz | quiz | 420 | subtraction
let's do a quick arithmetic quiz for 4 minutes, reaction time training for the team | quiz | 240 | mixed
quiz me: multiplication, 25 mins | quiz | 1500 | multiplication
addition practice quiz, twelve minutes | quiz | 720 | addition
hit me with a 6 minute times tables quiz 🧮 | quiz | 360 | multiplication
Start a subtraction quiz for a quarter of an hour | quiz | 900 | subtraction
quiz 45 min mixed arithmetic | quiz | 2700 | mixed
a 30 second multiplication quiz, just to test it | quiz | 30 | multiplication
mental arithmetic quiz for 8 minutes, my brain is mush after the night shift | quiz | 480 | mixed
stop the timer | stop
ok done, kill the focus | stop
end the quiz | stop
stop the quiz but keep the focus timer running | stop
cancel the focus, the quiz can keep going | stop
baby's awake, stop it | stop
Stop everything pls | stop
eh can stop the timer already | stop
I'm giving up on this quiz, end it | stop
scrim starting, cut the focus short | stop
sorry, could you stop the timer? something came up | stop
how much time is left? | status
is my focus still running | status
how long till the quiz ends | status
what's running right now? | status
how many minutes left on the timer lah | status
is the timer still going or did it stop | status
how long have I got left on the focus | status
quiz still on? | status
sorry to ask, but how long is left on my focus? | status
is anything running at the moment | status
what does the focus timer actually do? | help
can you remind me to check the hives at 4pm | help
set an alarm for 6am | help
pause the timer for a sec, baby's crying | help
I did a 2 hour focus yesterday, pretty proud | help
don't start anything yet | help
if I started a 30 minute quiz, would it count my score? | help
my co-pilot did a ten minute quiz this morning | help
tomorrow at 9 start a 2 hour focus | help
start a 25 min focus in ten minutes | help
got 27 out of 30 on the multiplication one! | help
hello! | help
note down: order more smoker fuel | help
quiz me on aviation weather for 10 mins | help
can you give me a division quiz for 5 minutes | help
tell me a joke about timers | help
Is there a way to make the quiz harder? | help
what's 7 times 8 | help
no no, I didn't mean start a timer | help
my students are doing a 15 min addition quiz now | help
I would have done a 40 minute focus but the baby woke up | help
thanks lah, very helpful | help
quiz me on drug interactions, 20 min | help
could you read back my notes | help
I usually do 50-minute focus blocks | help
start a focus session | ask
quiz me on times tables | ask
let's do 30 minutes | ask
can I have fifteen minutes? | ask
I kinda want to focus, if that's ok? | ask
start something for an hour lah | ask
give me a quick addition quiz | ask
focus for 30 hours straight | range
start a 2 hour multiplication quiz | range
90 minute arithmetic quiz please | range
focus 2 days on the thesis | range
quiz me for 75 mins, subtraction | range
focus for 25 hours | range
"""

HELD_OUT_FRESH21_ZH = """
开始专注25分钟 | start | 1500 | -
专注一小时，刷行测题 | start | 3600 | 刷行测题
帮我开个两个小时的专注，复习申论 | start | 7200 | 复习申论
考公冲刺，专注三个小时 | start | 10800 | 考公冲刺
专注45分钟，数量关系专项 | start | 2700 | 数量关系专项
开始计时专注半小时，整理病历 | start | 1800 | 整理病历
卫生室关门了，专注四十分钟写随访记录 | start | 2400 | 写随访记录
专注二十分钟盘点药品 | start | 1200 | 盘点药品
麻烦开一个十五分钟的专注，核对处方 | start | 900 | 核对处方
宝宝睡着了，快帮我开个20分钟专注🙏 | start | 1200 | -
趁孩子午睡，专注一个半小时 | start | 5400 | -
专注50分钟，写蜂场日志 | start | 3000 | 写蜂场日志
开始专注90分钟，学航空气象 | start | 5400 | 学航空气象
地面课复习 专注一小时 | start | 3600 | 地面课复习
专注 1h 写段子 | start | 3600 | 写段子
写新段子，给我来四十五分钟专注 | start | 2700 | 写新段子
开个60分钟的专注，复盘比赛录像 | start | 3600 | 复盘比赛录像
战队复盘 专注两小时 | start | 7200 | 战队复盘
那个……如果方便的话，能不能帮我开一个二十五分钟的专注？ | start | 1500 | -
不好意思打扰一下，想专注半个小时，可以吗 | start | 1800 | -
我觉得我需要专注四十分钟左右 | start | 2400 | -
专注一刻钟 | start | 900 | -
開始專注三十分鐘，寫報告 | start | 1800 | 寫報告
幫我專注兩個小時 讀書 | start | 7200 | 讀書
can 帮我开始专注 20 分钟吗 lah | start | 1200 | -
focus 30分钟 备课 | start | 1800 | 备课
退休了也要备课，专注一小时给学生出题 | start | 3600 | 给学生出题
专注八小时，年终汇报 | start | 28800 | 年终汇报
专注二十四小时 黑客松 | start | 86400 | 黑客松
专注5分钟 | start | 300 | -
开专注35分钟，因为下午要考模拟卷 | start | 2100 | -
专注两个半小时，刷真题 | start | 9000 | 刷真题
专注十二个小时，写值班文书 | start | 43200 | 写值班文书
开始一个25分钟的番茄钟 | start | 1500 | -
来个55分钟的专注，背常识 | start | 3300 | 背常识
专注1小时30分，练飞行程序 | start | 5400 | 练飞行程序
计时器开10分钟 | start | 600 | -
讲真我需要专注一下，三十分钟就好，不然今天的稿子写不完 | start | 1800 | -
开始一个10分钟的乘法测验 | quiz | 600 | multiplication
来五分钟口算，加法 | quiz | 300 | addition
减法练习三分钟 | quiz | 180 | subtraction
出一套15分钟的心算题 | quiz | 900 | mixed
九九乘法表测验，八分钟 | quiz | 480 | multiplication
给我孙子开个十分钟的乘法小测，他就坐在旁边 | quiz | 600 | multiplication
我想自己做二十分钟的减法练习，活动活动脑子 | quiz | 1200 | subtraction
数学测验 半小时 混合 | quiz | 1800 | mixed
加法测验一分钟 | quiz | 60 | addition
来个90秒的乘法 quiz | quiz | 90 | multiplication
可以开一个 12 分钟的算术测验吗 | quiz | 720 | mixed
考公数量关系先热个身，来5分钟口算测验 | quiz | 300 | mixed
那个，要是不麻烦的话……能给我来个六分钟的加法小测吗 | quiz | 360 | addition
赛前反应训练：两分钟加法测验 | quiz | 120 | addition
测验一小时，乘法 | quiz | 3600 | multiplication
開始一個十五分鐘的減法測驗 | quiz | 900 | subtraction
口算练习 25分钟 | quiz | 1500 | mixed
乘法口诀考我七分钟 | quiz | 420 | multiplication
减法quiz 4分钟 lah | quiz | 240 | subtraction
来个三十秒的乘法测验试试水 | quiz | 30 | multiplication
夜班刚下，来个八分钟的心算测验清醒一下 | quiz | 480 | mixed
加法小测验，四十五分钟 | quiz | 2700 | addition
quiz 我 十分钟 乘法 | quiz | 600 | multiplication
停止计时 | stop
结束专注 | stop
不测了，结束测验 | stop
把测验停了，专注继续 | stop
专注先停掉，测验让它继续跑 | stop
宝宝醒了，快停下 | stop
全部停掉 | stop
可以停 timer 了 lah | stop
算了，取消专注吧 | stop
練習賽開始了，把專注關掉 | stop
不好意思，能帮我把计时停了吗？临时有事 | stop
还剩多少时间？ | status
专注还在计时吗 | status
测验还有几分钟结束 | status
现在在运行什么？ | status
计时器还剩几分钟 lah | status
我专注了多久了 | status
測驗還在進行嗎 | status
请问一下，我的专注还剩多久呀 | status
现在有没有东西在跑 | status
离专注结束还有多久 | status
专注计时器是干什么用的？ | help
下午四点提醒我去看蜂箱 | help
明早六点叫我起床 | help
计时器暂停一下，孩子哭了 | help
我昨天专注了三个小时 | help
先别开始 | help
如果我开一个半小时的测验，会记分吗？ | help
我同学刚做完一个十分钟的乘法测验 | help
明天早上九点开始专注两小时 | help
十分钟后帮我开一个25分钟的专注 | help
乘法那套我答对了28道！ | help
你好呀 | help
记一下：明天进一批阿莫西林 | help
考我行测常识题十分钟 | help
来个五分钟的除法测验 | help
讲个笑话 | help
7乘8等于多少 | help
我不是要开计时器啦 | help
我学生们正在做加法测验 | help
本来想专注四十分钟的，结果孩子醒了 | help
你能做什么？ | help
谢谢啦 | help
考我十五分钟药理知识 | help
把我的笔记读一下 | help
我一般专注50分钟休息10分钟 | help
开始专注 | ask
考考我乘法 | ask
来二十分钟吧 | ask
给我半小时 | ask
我想专注一下，可以吗 | ask
开个一小时的 lah | ask
来个加法小测 | ask
专注三十个小时 | range
开一个两小时的乘法测验 | range
来个90分钟的口算测验 | range
专注两天，把论文写完 | range
减法测验一个半小时 | range
连续专注25小时 | range
"""
