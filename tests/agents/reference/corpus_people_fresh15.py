# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A fifteenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh15``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history nor the rows of
any other corpus (test_corpus.py tables, any corpus_people*.py rows) — only the eighth fresh set's module
docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``, ``_check`` in
test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in test_corpus_people.py, their
bodies only) and the apps' manifests for their bounds (focus up to 24 hours, quiz up to 1 hour; Notes has
no start). It did not search the repository for phrases and did not run the parser or the measure on its
rows. Each row was labelled with what a careful human assistant would do with the two timed apps installed
(a focus timer and an arithmetic quiz): an unclear request is ``ask`` or ``help``, never a guess. It is
measured once, by someone else, after all rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app, such as a length said alone),
``range`` (a duration past the app's bound) and ``help`` (anything that must not act: questions about the
apps, jokes, greetings, thanks, negations, past tense, hypotheticals, someone else's doing, plans for
later, things it cannot do — reminders, alarms, pausing, Notes, quizzes on anything but the four
arithmetic kinds — and scores reported). An activity is written as the person would want it labelled,
cut from the request in their words.

Written as new voices — a surgical resident between cases, a ride-share driver, a florist before
Valentine's day, a maths PhD who finds the quiz funny, a pupil preparing 中考, a 60-year-old learning
English, a home-schooling parent of three, a drummer, a sommelier, a game streamer's moderator, someone
recovering from burnout who wants short sessions, and people writing in heavy internet slang ("ngl",
"fr", "lowkey"; "冲鸭", "yyds", "绝绝子") — typing on phones and laptops: typos, numbers as words and
digits, emoji, mixed zh/en in both tables, some traditional characters, context first, durations before
or after the verb, requests wrapped in longer explanations. The mix, per language: about a third focus
starts (with and without an activity), a fifth quizzes (with and without a kind, durations in various
forms), stops (also with both running, stopping one and keeping the other), status, a fifth that must not
act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH15_EN = """
between cases rn, 20 min focus for charting pls | start | 1200 | charting
45 minute focus session for board prep | start | 2700 | board prep
parked for a bit. focus timer 15 min for my mileage log | start | 900 | mileage log
Valentine's is in 3 days and I have 200 orders. Start a 50-minute focus on wrapping bouquets | start | 3000 | wrapping bouquets
start focus for an hour and a half – drum rudiments | start | 5400 | drum rudiments
ngl I need to lock in fr, 40 min focus on my essay | start | 2400 | essay
lowkey start a twenty five minute focus sesh | start | 1500 | -
Please start a focus of 10 minutes for English vocabulary. | start | 600 | English vocabulary
recovering from burnout so small steps: a 5 min focus, nothing more | start | 300 | -
can u do a 12 minute focus for reading 📚 | start | 720 | reading
focus 2h — dissertation chapter 3 | start | 7200 | dissertation chapter 3
start a pomodoro, 25 mins | start | 1500 | -
I'd like to focus on lesson planning for 35 minutes please | start | 2100 | lesson planning
kids are napping!! quick 30 min focus for grading worksheets | start | 1800 | grading worksheets
wine list tasting notes — 45 min focus, starting now | start | 2700 | wine list tasting notes
timer for focus: 1 hr 15 min, moderating the charity stream | start | 4500 | moderating the charity stream
focus mode 90 minutes pls | start | 5400 | -
start focusing for three quarters of an hour on my cover letter | start | 2700 | cover letter
24 hour focus for the game jam, let's gooo | start | 86400 | game jam
50 minutes of focus on sight reading, go | start | 3000 | sight reading
yo start a 20 min focus real quick | start | 1200 | -
Focus for 1 hour, please. Topic: suturing techniques review | start | 3600 | suturing techniques review
focsu 25 min on emails | start | 1500 | emails
start a 7-minute focus | start | 420 | -
flight leaves in 2 hours, but first I need 1 hour of focus on the quarterly report | start | 3600 | quarterly report
focus session: 30 mins 🎧 coding | start | 1800 | coding
Set focus for half an hour, practicing double strokes | start | 1800 | practicing double strokes
need 40 minutes of deep focus on a proof | start | 2400 | proof
begin a 3 hr focus for thesis writing | start | 10800 | thesis writing
start a focus. 20 minutes. flower orders. | start | 1200 | flower orders
fr fr 45 min lock-in focus for chem hw, start it | start | 2700 | chem hw
could you start a 1.5 hour focus for inventory | start | 5400 | inventory
Focus time! 25 min, French verbs 🇫🇷 | start | 1500 | French verbs
start focusing now for 18 mins | start | 1080 | -
start a 2 and a half hour focus session for revision | start | 9000 | revision
Please could you begin a focus period of forty minutes for my Spanish homework | start | 2400 | Spanish homework
focus 1h30 on setlist practice | start | 5400 | setlist practice
focus 25 min for 论文 pls | start | 1500 | 论文
start a focus timer for twenty minutes - meditation 🧘 | start | 1200 | meditation
start a 5 minute multiplication quiz | quiz | 300 | multiplication
as a maths PhD I find this hilarious but sure, 10 min times tables quiz | quiz | 600 | multiplication
quiz me on addition for 3 minutes | quiz | 180 | addition
give my 3rd grader a subtraction quiz, 15 min | quiz | 900 | subtraction
arithmetic quiz, 20 minutes, mixed | quiz | 1200 | mixed
quick math quiz 2 mins | quiz | 120 | mixed
can you run a quiz of 10 minutes with sums | quiz | 600 | addition
ngl wanna test my mental math, quiz me for 7 min | quiz | 420 | mixed
start a half-hour quiz on multiplying | quiz | 1800 | multiplication
minus practice quiz for four minutes please | quiz | 240 | subtraction
1 hour arithmetic quiz | quiz | 3600 | mixed
Quiz: multiplication, 90 seconds | quiz | 90 | multiplication
let's do a timed quiz on adding numbers, twelve minutes | quiz | 720 | addition
my middle one needs a times-tables drill — 8 minute quiz | quiz | 480 | multiplication
start the arithmetic quiz for 25 min 🧮 | quiz | 1500 | mixed
I am learning English but math is easy for me: please a quiz of subtraction, 6 minutes | quiz | 360 | subtraction
quiz me on mixed arithmetic for a quarter of an hour | quiz | 900 | mixed
math quiz pls, 45 sec | quiz | 45 | mixed
multiplication quiz 30m | quiz | 1800 | multiplication
start a maths quiz (addition only) lasting 10 mins | quiz | 600 | addition
between patients, 5 min mental arithmetic quiz to keep sharp | quiz | 300 | mixed
do a 20-min subtraction quiz | quiz | 1200 | subtraction
times tables quiz for the kids, 10 minutes, all three are at the table | quiz | 600 | multiplication
stop the timer | stop
end focus | stop
cancel the quiz, the kid spilled juice | stop
stop the quiz but keep my focus going | stop
ok end the focus session, the quiz can keep running | stop
stop everything | stop
kill the timer pls, patient just came in | stop
I'm done, stop it | stop
stop stop stop | stop
end the math quiz now | stop
cancel focus 🙏 | stop
that's enough for today, end the session | stop
abort the pomodoro | stop
how much time is left? | status
is the focus timer still running? | status
how long until the quiz ends | status
what's running rn | status
time left on my focus? | status
how many minutes do I have left | status
is anything running? | status
status? | status
am I still in focus mode | status
when does my timer end? | status
how far along is the quiz | status
what can the quiz do? | help
lol can you quiz me on wine regions | help
don't start a timer yet | help
I did a 25 min focus this morning | help
my son got 18 out of 20 on the quiz! | help
remind me at 5 to call the flower supplier | help
set an alarm for 6am | help
pause the timer | help
hi there | help
if I started a 2 hour focus, would it stop when I close the app? | help
tomorrow I'll do a 30 min focus before work | help
my coworker uses a 50 min focus timer, works great | help
quiz me on anatomy for 10 minutes | help
add "buy ribbons" to my notes | help
thanks!! | help
why is the quiz so easy lol, I do topology | help
can you quiz me on division for 5 minutes | help
tell me a joke about drummers | help
how does the focus timer work? | help
not now, maybe later | help
start a 20 minute focus at 3pm | help
what's 7 times 8 | help
yesterday's quiz went badly ngl | help
is 25 minutes the best length for a pomodoro? | help
let's do 30 minutes | ask
start a focus session | ask
quiz me | ask
20 min pls | ask
can you start a timer | ask
start a multiplication quiz | ask
focus for 30 hours straight | range
2 hour multiplication quiz | range
start a 90 minute quiz | range
focus 48h for the hackathon | range
"""

HELD_OUT_FRESH15_ZH = """
专注25分钟 | start | 1500 | -
开始专注半小时，写作业 | start | 1800 | 写作业
中考倒计时100天，冲鸭！专注四十分钟背英语单词 | start | 2400 | 背英语单词
帮我开个一小时的专注，复习物理 | start | 3600 | 复习物理
番茄钟25分钟，做数学卷子 | start | 1500 | 做数学卷子
开始專注二十分鐘，練鼓 | start | 1200 | 練鼓
专注1.5小时 写论文 | start | 5400 | 写论文
刚下手术，给我开15分钟专注整理病历 | start | 900 | 整理病历
情人节前最后冲刺，专注两个小时包花束 | start | 7200 | 包花束
来个专注 10min，学英语 | start | 600 | 学英语
专注模式开启，45分钟 | start | 2700 | -
开始专注，时长三刻钟 | start | 2700 | -
专注 2h 剪视频 | start | 7200 | 剪视频
请帮我开始一个三十分钟的专注时段，我要备课 | start | 1800 | 备课
刚从倦怠里缓过来，先来个5分钟专注就好 | start | 300 | -
yyds番茄钟，25分钟走起 | start | 1500 | -
专注一个半小时，整理酒单 | start | 5400 | 整理酒单
开一个20分钟的focus，看文献 | start | 1200 | 看文献
给我计时专注50分钟，练字 | start | 3000 | 练字
今晚通宵，专注8个小时 | start | 28800 | -
开启24小时专注，game jam | start | 86400 | game jam
在家带三个娃上课，趁他们午睡专注半个钟头改作业 | start | 1800 | 改作业
开始專注一小時，讀書 | start | 3600 | 讀書
专注二十五分钟背古诗 | start | 1500 | 背古诗
六十岁学英语，请帮我专注十分钟练听力 | start | 600 | 练听力
开个专注，40分钟，刷题 | start | 2400 | 刷题
专注一刻钟 | start | 900 | -
跑完这单先停车，专注20分钟记账 | start | 1200 | 记账
刚下播，专注一小时处理弹幕举报 | start | 3600 | 处理弹幕举报
专注 90 分钟，写代码 💻 | start | 5400 | 写代码
现在开始专注，两个半小时，准备答辩 | start | 9000 | 准备答辩
绝绝子，专注35分钟学日语 | start | 2100 | 学日语
帮我定个专注时间：1小时20分钟，看书 | start | 4800 | 看书
专注3小时复习高数 | start | 10800 | 复习高数
开始专注 12 分钟 | start | 720 | -
来一个四十五分钟的专注，背单词 📖 | start | 2700 | 背单词
专注两小时，练琴 | start | 7200 | 练琴
启动专注计时，七分钟，冥想 | start | 420 | 冥想
来个5分钟的乘法测验 | quiz | 300 | multiplication
出十分钟加法题给我做 | quiz | 600 | addition
减法练习测验，3分钟 | quiz | 180 | subtraction
口算测验二十分钟 | quiz | 1200 | mixed
给孩子来个乘法口诀小测，8分钟 | quiz | 480 | multiplication
数学小测验，时长一刻钟 | quiz | 900 | mixed
中考数学冲鸭！来个半小时的口算测验 | quiz | 1800 | mixed
考考我加法，两分钟 | quiz | 120 | addition
乘法测验 1 小时 | quiz | 3600 | multiplication
来一轮减法小测 10min | quiz | 600 | subtraction
作为数学博士我觉得挺好笑，不过还是来个15分钟的乘法测验吧 | quiz | 900 | multiplication
出点算术题考考我，7分钟 | quiz | 420 | mixed
开始四十秒的乘法测验 | quiz | 40 | multiplication
混合运算测验，25分钟 | quiz | 1500 | mixed
帮我开个加法quiz，6分钟 | quiz | 360 | addition
來個十分鐘的減法測驗 | quiz | 600 | subtraction
考我九九乘法表，五分钟 | quiz | 300 | multiplication
给三个娃出个口算测验，20分钟 | quiz | 1200 | mixed
算术测验 半小时 | quiz | 1800 | mixed
来个12分钟乘法小测验 | quiz | 720 | multiplication
病人间隙，来个3分钟口算测验保持清醒 | quiz | 180 | mixed
quiz 一下加法，八分钟 | quiz | 480 | addition
开始减法测验，时间四分钟 | quiz | 240 | subtraction
停止专注 | stop
结束测验 | stop
把计时器关了 | stop
停掉测验，专注继续 | stop
结束专注，测验别停 | stop
全部停掉 | stop
不做了，结束吧 | stop
取消番茄钟 | stop
病人来了，先把专注停了 | stop
停止測驗 | stop
别计时了 | stop
stop一下专注 | stop
够了够了，关掉吧 | stop
还剩多久？ | status
专注还在进行吗 | status
测验还有几分钟 | status
现在在跑什么 | status
还剩几分钟啊 | status
計時還在嗎 | status
专注什么时候结束 | status
有东西在运行吗 | status
现在状态如何 | status
离测验结束还有多长时间 | status
你好 | help
测验能考什么？ | help
先别开始专注 | help
我昨天专注了两个小时 | help
孩子测验得了满分！ | help
提醒我下午三点去接孩子 | help
帮我定个早上六点的闹钟 | help
暂停一下计时 | help
如果我开了专注，锁屏会不会断？ | help
明天早上再专注一小时 | help
我同桌每天专注三个小时 | help
考我历史题，十分钟 | help
把“买玫瑰”记到笔记里 | help
谢谢啦 | help
这测验也太简单了吧哈哈 | help
来个除法测验，5分钟 | help
讲个笑话 | help
专注计时器怎么用？ | help
算了，不用了 | help
晚上八点帮我开始专注 | help
7乘8等于多少 | help
上次测验考砸了 | help
番茄钟一般多长比较好？ | help
绝绝子，这个app yyds | help
来二十分钟吧 | ask
开始专注 | ask
考考我 | ask
开个乘法测验 | ask
帮我开个番茄钟 | ask
45分钟，开始 | ask
专注30小时 | range
来个两小时的加法测验 | range
测验开90分钟 | range
连续专注三天 | range
"""
